import { payWithDemoForm } from './support/demo-payment';
import { queryStore } from './support/store-database';
import { expect, test } from './support/test';

const KURTA = 'plink_sir92fn7sxcqqu52';
const KURTA_TITLE = 'Embroidered Lawn Kurta — Mint Jaal';
const shopper = {
  email: 'teal.buyer@shop.example',
  name: 'Sana Teal',
  line1: '4 Canal View',
  city: 'Lahore',
  postalCode: '54000',
  country: 'PK',
};

// Issue 40's "done when": the demo kurta's last Teal M, bought from a shared link. It sells the demo's
// stock, so it runs with the journeys that edit the catalogue, after the ones that read it.
test('a shared link opens the teal kurta; the last teal M is bought while maroon M stays, and the email names Teal / M', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`/product/${KURTA}?colour=teal`);
  await expect(page).toHaveTitle(new RegExp(`^${KURTA_TITLE} — Teal · `));
  const detail = page.getByTestId('product-detail');
  const colours = detail.getByRole('radiogroup', { name: 'Colour' });
  await expect(colours.getByRole('radio', { name: 'Teal' })).toBeChecked();
  // Teal's own photos come first.
  const main = page.getByRole('main').getByRole('img').first();
  await expect(main).toHaveAttribute('alt', /^Front view of the teal kurta/);
  await expect(main).toHaveAttribute('src', /mint-jaal-teal-front/);

  // Which teal sizes are left: all of them, M its last one.
  const sizes = detail.getByRole('group', { name: 'Size' });
  for (const size of ['S', 'M', 'L', 'XL', 'XXL'])
    await expect(sizes.getByRole('radio', { name: size, exact: true })).toBeEnabled();
  await sizes.getByText('M', { exact: true }).click();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();

  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-line-variant')).toHaveText(/^Teal \/ M/);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  await payWithDemoForm(page, shopper);
  await page.getByRole('link', { name: 'View your order' }).click();
  await expect(page).toHaveURL(/\/order\/[^/?]+\?token=.+/);
  await expect(page.getByTestId('order-line')).toHaveCount(1);
  await expect(page.getByTestId('order-line')).toContainText('Teal / M');
  const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

  // The confirmation email (through the outbox) names the colour and size of the line.
  await expect
    .poll(async () =>
      (
        await queryStore<{ text_body: string }>(
          'SELECT text_body FROM email_outbox WHERE order_id = ? AND kind = ?',
          [orderId, 'order_confirmation'],
        )
      ).map((r) => r.text_body),
    )
    .toEqual([expect.stringContaining(`${KURTA_TITLE} (Teal / M)`)]);

  // Teal M is gone now; Maroon M is still there, at Maroon's own price.
  await page.goto(`/product/${KURTA}?colour=teal`);
  await expect(sizes.getByRole('radio', { name: 'M, sold out' })).toBeDisabled();
  await page.goto(`/product/${KURTA}?colour=maroon`);
  await expect(colours.getByRole('radio', { name: 'Maroon' })).toBeChecked();
  await expect(sizes.getByRole('radio', { name: 'M', exact: true })).toBeEnabled();
  await expect(detail.getByTestId('product-detail-price')).toHaveText(/96/);
  await expect(page.getByRole('main').getByRole('img').first()).toHaveAttribute(
    'alt',
    /^Front view of the maroon kurta/,
  );
});
