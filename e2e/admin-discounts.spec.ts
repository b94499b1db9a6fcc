import { adminEmail, adminPassword, signIn, staffEmail, staffPassword } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { ageConfirmations } from './support/store-database';
import { expect, test } from './support/test';

/** YYYY-MM-DD of a day from today, in UTC (the shop's zone until the owner sets one). */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test('the owner sets up an Eid sale and a code, sees them listed, and ends the code with a fresh confirmation @edits-catalogue', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page);
  await page.getByRole('tab', { name: 'Discounts' }).click();
  await expect(page.getByRole('heading', { name: 'Sales and codes' })).toBeVisible();

  // The sale: 20 % off items tagged women or lawn, from tomorrow 00:00.
  await page.getByRole('button', { name: 'New sale or code' }).click();
  const dialog = page.getByRole('dialog', { name: 'New sale or code' });
  await expect(dialog.getByTestId('stacking-rule')).toHaveText(
    'One sale per item: the best for the shopper, never stacked. A code applies on top of sale prices.',
  );
  // Checked in the browser by the server's own rules, each message beside its field.
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Name it')).toBeVisible();
  await expect(dialog.getByText('Enter a start date and time')).toBeVisible();

  await dialog.getByLabel('Name', { exact: true }).fill('Eid 20% off women’s lawn');
  await dialog.getByLabel('Percentage off').fill('20');
  await dialog.getByLabel('Products with any of these tags').check();
  const tags = dialog.getByLabel('Tags', { exact: true });
  await tags.fill('women');
  await tags.press('Enter');
  await tags.fill('lawn');
  await tags.press('Enter');
  await dialog.getByLabel('Starts').fill(`${day(1)}T00:00`);
  await expectNoAxeViolations(page, 'the new discount form');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toHaveCount(0);
  // By its start too: the Eid journey (eid-sale-journey.spec.ts) may list a sale of the same name meanwhile.
  const saleRow = page
    .getByTestId('discount-row')
    .filter({ hasText: 'Eid 20% off women’s lawn' })
    .filter({ hasText: `${day(1)} 00:00` });
  await expect(saleRow.getByTestId('discount-status')).toHaveText('Scheduled');
  await expect(saleRow).toContainText('20% off each item');

  // The code: EIDSETUP10 (EID10 is the Eid journey's), 10 % off orders of 100 or more, 50 uses, from today.
  await page.getByRole('button', { name: 'New sale or code' }).click();
  await dialog.getByLabel('Code (entered at checkout)').check();
  await dialog.getByLabel('Name', { exact: true }).fill('Eid code');
  await dialog.getByLabel('Code', { exact: true }).fill('EIDSETUP10');
  await dialog.getByLabel('Percentage off').fill('10');
  await expect(dialog.getByLabel('The whole order')).toBeChecked();
  await dialog.getByLabel('Starts').fill(`${day(0)}T00:00`);
  await dialog.getByLabel('Minimum order (optional)').fill('100');
  await dialog.getByLabel('Total uses (optional)').fill('50');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toHaveCount(0);
  const codeRow = page.getByTestId('discount-row').filter({ hasText: 'Code EIDSETUP10' });
  await expect(codeRow.getByTestId('discount-status')).toHaveText('Running');
  await expect(codeRow.getByTestId('discount-uses')).toHaveText('0 of 50');
  await expect(codeRow).toContainText('10% off the order');
  await expectNoAxeViolations(page, 'the list of sales and codes');

  // A second EIDSETUP10, in another case, is refused beside the code field.
  await page.getByRole('button', { name: 'New sale or code' }).click();
  await dialog.getByLabel('Code (entered at checkout)').check();
  await dialog.getByLabel('Name', { exact: true }).fill('Again');
  await dialog.getByLabel('Code', { exact: true }).fill('eidsetup10');
  await dialog.getByLabel('Starts').fill(`${day(0)}T00:00`);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('This code exists already')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Ending asks "are you sure", then, the session's confirmation being old, for the password again.
  await ageConfirmations(adminEmail());
  page.once('dialog', (d) => void d.accept());
  await codeRow.getByRole('button', { name: 'End Eid code (EIDSETUP10)' }).click();
  const proof = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(proof).toBeVisible();
  await proof.getByLabel('Password').fill(adminPassword());
  await proof.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Discount ended' })).toBeVisible();
  await expect(codeRow.getByTestId('discount-status')).toHaveText('Ended');
  await expect(codeRow.getByRole('button', { name: /^End / })).toHaveCount(0);
  await expect(saleRow.getByTestId('discount-status')).toHaveText('Scheduled');
});

test('staff see the sales and codes but cannot change them', async ({ page }) => {
  await signIn(page, { email: staffEmail(), password: staffPassword() });
  await page.getByRole('tab', { name: 'Discounts' }).click();
  await expect(page.getByRole('heading', { name: 'Sales and codes' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New sale or code' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Edit|End) / })).toHaveCount(0);
});
