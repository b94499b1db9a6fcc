import { payWithDemoFormByKeyboard } from './support/demo-payment';
import { expectFocusTrappedIn, expectVisibleFocus, tabTo } from './support/keyboard';
import { expect, test } from './support/test';

// Everything here is done with the keyboard alone: no click, no fill, as someone without a mouse would.

test('a shopper with only a keyboard searches, filters, picks a size, adds to the cart and pays', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');

  // The first Tab shows the skip link; following it starts the next Tab inside the page's main content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expectVisibleFocus(page);
  expect((await skip.boundingBox())?.width ?? 0).toBeGreaterThan(20);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  expect(await page.getByRole('main').evaluate((main) => main.contains(document.activeElement))).toBe(true);

  // Search.
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await tabTo(page, search);
  await page.keyboard.type('lehenga');
  await expect(page).toHaveURL(/\?q=lehenga$/);
  await expect(page.getByTestId('result-count')).toHaveText(/^\d+ products?$/);

  // Filter by a size: the filters come before the search box.
  const filters = page.getByRole('complementary', { name: 'Filters' });
  const size = filters
    .getByRole('group', { name: 'Size' })
    .getByRole('checkbox', { disabled: false })
    .first();
  await tabTo(page, size, { backwards: true });
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/size=/);
  await expect(page.getByRole('checkbox', { checked: true })).toHaveCount(1);

  // Open the first product that matches.
  const card = page.getByTestId('product-card').first();
  const title = (await card.getByRole('heading').textContent()) ?? '';
  await tabTo(page, card.getByRole('heading').getByRole('link'));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

  // Choose a size: Tab reaches the group, Space picks the first size, arrows move between sizes.
  const detail = page.getByTestId('product-detail');
  const add = detail.getByRole('button', { name: 'Add to Cart' });
  await expect(add).toBeDisabled();
  // The sizes' group (a product with colours has a colour group before it, one colour already chosen).
  const sizes = detail.getByRole('group', { name: 'Size' });
  await tabTo(page, sizes.getByRole('radio').first());
  await page.keyboard.press('Space');
  await expect(sizes.getByRole('radio').first()).toBeChecked();
  await expect(add).toBeEnabled();
  await tabTo(page, add);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
  const cartButton = page.getByRole('button', { name: 'Cart, 1 item' });
  await expect(cartButton).toBeVisible();

  // Back up to the cart, open it, and go on to checkout.
  await tabTo(page, cartButton, { backwards: true });
  await page.keyboard.press('Enter');
  const panel = page.getByRole('region', { name: 'Cart' });
  await expect(panel.getByTestId('cart-line')).toHaveCount(1);
  await tabTo(page, panel.getByRole('link', { name: 'Proceed to Checkout' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Review Your Order' })).toBeVisible();
  await expect(page.getByTestId('checkout-line')).toContainText(title);

  // Pay with the demo payment.
  const pay = page.getByRole('button', { name: 'Proceed to Payment' });
  await expect(pay).toBeEnabled();
  await tabTo(page, pay);
  await page.keyboard.press('Enter');
  // The demo payment form, filled and sent from the keyboard too.
  await payWithDemoFormByKeyboard(page);
  await expect(page.getByTestId('order-number')).toHaveText(/^Order #\d+$/);
});

test('on a phone the filters drawer keeps focus while open and gives it back when Escape closes it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const opener = page.getByRole('button', { name: /^Filters/ });
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await expect(drawer.getByRole('group', { name: 'Size' }).getByRole('checkbox').first()).toBeVisible();
  await expectFocusTrappedIn(page, drawer);

  // A size picked with the keyboard inside the drawer filters the page.
  await tabTo(page, drawer.getByRole('group', { name: 'Size' }).getByRole('checkbox').first());
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/size=/);

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeFocused();
  await expectVisibleFocus(page);
});
