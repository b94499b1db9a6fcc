import { signIn } from './support/admin';
import { expect, type Locator, type Page, test } from './support/test';

/** The panel a tab controls, found by the tab's aria-controls, and checked to be labelled by that tab. */
async function expectTiedToItsPanel(page: Page, tab: Locator): Promise<Locator> {
  const tabId = await tab.getAttribute('id');
  const panelId = await tab.getAttribute('aria-controls');
  expect(tabId, 'the tab has an id').toBeTruthy();
  expect(panelId, 'the tab names its panel').toBeTruthy();
  const panel = page.locator(`[id="${panelId}"]`);
  await expect(panel).toHaveAttribute('role', 'tabpanel');
  await expect(panel).toHaveAttribute('aria-labelledby', tabId ?? '');
  await expect(panel).toBeVisible();
  return panel;
}

/** The element that has focus, by its accessible role and text, for messages. */
const focusedTab = (page: Page) => page.locator('[role="tab"]:focus');

test('Catalog Management’s tabs follow the tabs pattern: one Tab stop, arrow keys, Home and End, each tied to its panel', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Catalog Management' }).click();
  const tablist = page.getByRole('tablist', { name: 'Catalog' });
  const versions = tablist.getByRole('tab', { name: 'Catalog Versions' });
  const viewer = tablist.getByRole('tab', { name: 'YAML Viewer' });
  await expect(versions).toHaveAttribute('aria-selected', 'true');
  const versionsPanel = await expectTiedToItsPanel(page, versions);
  await expect(versionsPanel.getByText(/catalog versions found|products$/).first()).toBeVisible();

  // A version to view makes the YAML Viewer tab usable.
  await page.getByRole('button', { name: 'Export Catalog' }).click();
  const exportDialog = page.getByRole('dialog', { name: 'Export Catalog' });
  await exportDialog.getByLabel('Label (optional)').fill(`Tabs ${Date.now()}`);
  await exportDialog.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Catalog exported successfully' })).toBeVisible();
  await page.getByTestId('catalog-version').first().getByRole('button', { name: 'View' }).click();
  await expect(viewer).toHaveAttribute('aria-selected', 'true');
  const viewerPanel = await expectTiedToItsPanel(page, viewer);
  await expect(viewerPanel.getByRole('textbox', { name: 'Catalog YAML' })).toHaveValue(/products:/);
  await expect(versionsPanel).toBeHidden();

  // Only the selected tab is in the Tab order: Shift+Tab from the panel's first control lands on it, and
  // Tab from it leaves the tab list (the other tab is skipped).
  await viewer.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(focusedTab(page)).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(viewer).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(focusedTab(page)).toHaveCount(0);
  await expect(versions).toHaveAttribute('tabindex', '-1');
  await expect(viewer).toHaveAttribute('tabindex', '0');

  // The arrow keys move and select, wrapping round; Home and End go to the ends.
  await viewer.focus();
  await page.keyboard.press('ArrowRight');
  await expect(versions).toBeFocused();
  await expect(versions).toHaveAttribute('aria-selected', 'true');
  await expect(viewer).toHaveAttribute('aria-selected', 'false');
  await expect(versionsPanel).toBeVisible();
  await expect(viewerPanel).toBeHidden();
  // Tab from the selected tab skips the other one and goes into the panel.
  await page.keyboard.press('Tab');
  await expect(focusedTab(page)).toHaveCount(0);
  await expect(versionsPanel.getByRole('button', { name: 'View' }).first()).toBeFocused();
  await versions.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(viewer).toBeFocused();
  await expect(viewer).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(versions).toBeFocused();
  await expect(versions).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(viewer).toBeFocused();
  await expect(viewer).toHaveAttribute('aria-selected', 'true');
});

test('the dashboard’s sections use the same tabs: Home and End as well as the arrows', async ({ page }) => {
  await signIn(page);
  const tablist = page.getByRole('tablist', { name: 'Dashboard sections' });
  const tabs = tablist.getByRole('tab');
  const first = tabs.first();
  const last = tabs.last();
  await first.focus();
  await page.keyboard.press('End');
  await expect(last).toBeFocused();
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expectTiedToItsPanel(page, last);
  await page.keyboard.press('ArrowRight');
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  await expect(first).toBeFocused();
  await expectTiedToItsPanel(page, first);
  await expect(tablist.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
});
