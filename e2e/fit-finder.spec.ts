import { expectNoAxeViolations } from './support/axe';
import { tabTo } from './support/keyboard';
import { expect, type Page, test } from './support/test';

// Two demo products with size charts in inches (data/demo/catalogue.json):
// the kurta's chest is S 36, M 38, L 40, XL 42, XXL 45; the lehenga's bust XS 33, S 35, M 37, L 39, XL 41.
const KURTA = 'Embroidered Lawn Kurta — Mint Jaal';
const LEHENGA = 'Bridal Lehenga Choli — Crimson Zardozi';

/** Opens a demo product the way a shopper finds it: a search, then its card. */
async function openProduct(page: Page, title: string) {
  await page.goto(`/?q=${encodeURIComponent(title.split(' — ')[1] ?? title)}`);
  await page.getByTestId('product-card').getByRole('link', { name: title }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

test('a shopper finds a size from their measurements by keyboard, keeps them for the next product, and clears them', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openProduct(page, KURTA);
  const detail = page.getByTestId('product-detail');

  // Open the finder from the keyboard: it sits under the size picker.
  const toggle = detail.getByRole('button', { name: 'Find my size' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const finder = page.getByTestId('fit-finder');
  const form = finder.getByRole('form', { name: 'Find my size' });

  // One field per body measurement of this chart; lengths are set aside with a reason.
  await expect(form.getByRole('textbox')).toHaveCount(2);
  await expect(form.getByText(/Lengths \(length, sleeve\) are the garment's own/)).toBeVisible();
  // The chart is in inches, so inches are chosen to start with.
  await expect(form.getByRole('radio', { name: 'Inches (in)' })).toBeChecked();

  // A mistake is caught on its field, which takes focus and carries the message.
  const chest = form.getByRole('textbox', { name: 'Chest (in)' });
  const shoulder = form.getByRole('textbox', { name: 'Shoulder (in)' });
  await tabTo(page, chest);
  await page.keyboard.type('38');
  await page.keyboard.press('Tab');
  await expect(shoulder).toBeFocused();
  await page.keyboard.type('abc');
  await page.keyboard.press('Enter');
  await expect(shoulder).toBeFocused();
  await expect(shoulder).toHaveAttribute('aria-invalid', 'true');
  await expect(shoulder).toHaveAccessibleDescription(/Enter a number, like 38 or 38\.5\./);

  // Corrected (emptied: only the chest is compared), the answer comes with its reason.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  const answer = page.getByTestId('fit-finder-result');
  await expect(answer).toHaveAttribute('role', 'status');
  await expect(answer).toContainText('Your size: M');
  await expect(answer.getByRole('listitem')).toHaveText(['chest 38 in → fits M (38 in)']);
  await expect(answer).toContainText('Not compared, as you left them empty: shoulder.');

  // Applied to the size picker.
  const choose = finder.getByRole('button', { name: 'Choose M' });
  await tabTo(page, choose);
  await page.keyboard.press('Enter');
  await expect(detail.getByRole('radio', { name: 'M', exact: true })).toBeChecked();
  await expect(page.getByTestId('fit-finder-message')).toHaveText('Size M is chosen.');
  await expect(detail.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
  await expectNoAxeViolations(page, 'a product page with the fit finder answering');

  // Another product: the chest remembered fills its bust, and it answers at once, honestly.
  await openProduct(page, LEHENGA);
  const toggle2 = page.getByTestId('product-detail').getByRole('button', { name: 'Find my size' });
  await tabTo(page, toggle2);
  await page.keyboard.press('Enter');
  const bust = finder.getByRole('textbox', { name: 'Bust (in)' });
  await expect(bust).toHaveValue('38');
  await expect(finder.getByRole('textbox', { name: 'Waist (in)' })).toHaveValue('');
  await expect(answer).toContainText('Between sizes: M or L');
  await expect(answer.getByRole('listitem')).toHaveText(['bust 38 in: between M (37 in) and L (39 in)']);
  await expect(finder.getByRole('button', { name: 'Choose M' })).toBeVisible();
  await expect(finder.getByRole('button', { name: 'Choose L' })).toBeVisible();

  // Centimetres: the unit applies to what is typed; 97 cm is 38.2 in.
  await tabTo(page, finder.getByRole('radio', { name: 'Inches (in)' }));
  await page.keyboard.press('ArrowLeft');
  await expect(finder.getByRole('radio', { name: 'Centimetres (cm)' })).toBeChecked();
  await tabTo(page, finder.getByRole('textbox', { name: 'Bust (cm)' }));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('97');
  await page.keyboard.press('Tab');
  await page.keyboard.type('76');
  await page.keyboard.press('Enter');
  await expect(answer.getByRole('listitem')).toHaveText([
    'bust 97 cm (38.2 in): between M (37 in) and L (39 in)',
    'waist 76 cm (29.9 in) → fits M (30 in)',
  ]);
  await expectNoAxeViolations(page, 'the fit finder saying "between sizes"');

  // Cleared: the fields empty, the device forgets, and the next visit starts blank.
  await tabTo(page, finder.getByRole('button', { name: 'Clear my measurements' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('fit-finder-message')).toHaveText(
    'Your measurements are cleared from this device.',
  );
  await expect(finder.getByRole('textbox', { name: 'Bust (cm)' })).toHaveValue('');
  expect(await page.evaluate(() => localStorage.getItem('fit-finder:measurements:v1'))).toBeNull();
  await openProduct(page, KURTA);
  await page.getByTestId('product-detail').getByRole('button', { name: 'Find my size' }).click();
  await expect(finder.getByRole('textbox', { name: 'Chest (in)' })).toHaveValue('');
  await expect(answer).toBeEmpty();
});
