import { openAdminTab, signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { placeDemoOrder } from './support/demo-order';
import { queryStore } from './support/store-database';
import { expect, type Page, test } from './support/test';

// Orders shipped, delivered, returned and closed through the admin; axe on the busiest pages. In order, in one
// worker: they hold and restock units of the same demo product.
test.describe.configure({ mode: 'default', timeout: 240_000 });

/** $15 as the store writes it (whole amounts without cents). */
const FIFTEEN = /\$15(\.00)?(?!\d)/;

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.skeleton:not(.card-picture-skeleton):visible')).toHaveCount(0);
}

/** The order's number as its page says it ("#12"). */
async function orderNumber(page: Page, orderPath: string): Promise<string> {
  await page.goto(orderPath);
  const heading = page.getByRole('heading', { level: 1, name: /^Order #\d+$/ });
  await expect(heading).toBeVisible();
  return ((await heading.textContent()) ?? '').replace('Order ', '');
}

/** The owner ships the order and records its delivery, as the orders tab lets them. */
async function shipAndDeliver(page: Page, number: string): Promise<void> {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Orders' }).click();
  const row = page.getByTestId('order-row').filter({ hasText: number });
  await row.getByRole('button', { name: number }).click();
  const dialog = page.getByRole('dialog', { name: `Order ${number}` });
  await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
  const shipForm = dialog.getByRole('form', { name: 'Shipment' });
  await shipForm.getByLabel('Carrier').fill('DHL');
  await shipForm.getByLabel('Tracking number').fill(`JD0146000${number.slice(1)}`);
  await shipForm.getByRole('button', { name: 'Save shipment' }).click();
  await expect(dialog.getByTestId('order-dialog-stage')).toHaveText('Shipped');
  await dialog.getByRole('button', { name: 'Mark as delivered' }).click();
  await expect(dialog.getByTestId('order-dialog-stage')).toHaveText('Delivered');
  await dialog.getByRole('button', { name: 'Close' }).click();
}

/** The owner opens the order's return from the Returns tab. */
async function openReturn(page: Page, number: string) {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Returns' }).click();
  await page.getByRole('button', { name: new RegExp(`^${number} return`) }).click();
  const dialog = page.getByRole('dialog', { name: `Return for order ${number}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The return-step emails queued for an order, oldest first. */
async function returnEmails(orderPath: string): Promise<string[]> {
  const orderId = decodeURIComponent(orderPath.split('/')[2]?.split('?')[0] ?? '');
  const rows = await queryStore<{ subject: string }>(
    "SELECT subject FROM email_outbox WHERE order_id = ? AND kind = 'return_step' ORDER BY created_at, id",
    [orderId],
  );
  return rows.map((r) => r.subject);
}

test('a shopper swaps a size that is too small, another is refunded, and the owner sees why on the product', async ({
  page,
}) => {
  // The first shopper's order, shipped and delivered.
  const first = await placeDemoOrder(page);
  const firstNumber = await orderNumber(page, first.orderPath);
  // "Lawn Kurta (Teal / M) × 1": the title, and the size after the colour when there is one.
  const lineText = (await page.getByTestId('order-line').first().textContent()) ?? '';
  const title = lineText.split(' (')[0] ?? '';
  const boughtSize =
    lineText
      .match(/\(([^)]+)\)/)?.[1]
      ?.split(' / ')
      .pop() ?? '';
  expect(boughtSize).not.toBe('');
  await signIn(page);
  await shipAndDeliver(page, firstNumber);

  // Too small: the next size is offered first, in stock, and asking holds it.
  await page.goto(first.orderPath);
  const returns = page.getByTestId('order-returns');
  await expect(returns.getByRole('heading', { name: 'Return or exchange' })).toBeVisible();
  const form = returns.getByRole('form', { name: 'Return or exchange' });
  await form.getByRole('group', { name: 'Which items?' }).getByRole('checkbox').first().check();
  await form.getByRole('radio', { name: 'Too small' }).check();
  const swap = form.getByRole('radio', { name: /^Exchange for \S+/ });
  await expect(swap).toBeChecked();
  const offerText = await swap.evaluate((el) => el.closest('label')?.textContent ?? '');
  // "Exchange for M, Mint — in stock": the size first.
  const offered = offerText.match(/Exchange for (.+?) —/)?.[1]?.split(', ')[0] ?? '';
  expect(offered).not.toBe('');
  expect(offered).not.toBe(boughtSize);
  await settle(page);
  await expectNoAxeViolations(page, 'the return form');
  await form.getByRole('button', { name: 'Send my request' }).click();
  await expect(returns.getByTestId('return-said')).toBeFocused();
  await expect(returns.getByTestId('return-status')).toHaveText(
    'Requested: waiting for the shop to approve it',
  );
  // Held for them when its stock is counted (a demo size may be untracked: nothing to hold then).
  const [held] = await queryStore<{ held: number; counted: number }>(
    `SELECT rl.held AS held, (SELECT count(*) FROM size_stock s WHERE s.product_id = ? AND s.size = rl.exchange_size
       AND s.colour IN ('', rl.exchange_colour)) AS counted
     FROM return_lines rl JOIN returns r ON r.id = rl.return_id WHERE r.order_id = ?`,
    [first.productId, decodeURIComponent(first.orderPath.split('/')[2]?.split('?')[0] ?? '')],
  );
  expect(Number(held?.held)).toBe(Number(held?.counted) > 0 ? 1 : 0);

  // The owner approves, receives the parcel (its unit back on the shelf) and ships the replacement.
  let dialog = await openReturn(page, firstNumber);
  await expect(dialog).toContainText('Too small');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog.getByRole('button', { name: 'Mark as received' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Mark as received' }).click();
  const receive = dialog.getByRole('form', { name: 'Receive' });
  await receive.getByRole('group', { name: 'Put back in stock' }).getByRole('spinbutton').first().fill('1');
  await receive.getByRole('button', { name: 'Mark as received' }).click();
  await expect(dialog.getByRole('button', { name: 'Ship the exchange' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Ship the exchange' }).click();
  const ship = dialog.getByRole('form', { name: 'Ship the exchange' });
  await ship.getByLabel('Carrier').fill('UPS');
  await ship.getByLabel('Tracking number').fill('1Z999AA10123456784');
  await ship.getByRole('button', { name: 'Ship and close' }).click();
  await expect(dialog.getByRole('button', { name: 'Ship the exchange' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'the admin return dialog');

  // The shopper's page and emails say each step.
  await page.goto(first.orderPath);
  await expect(returns.getByTestId('return-status')).toHaveText('Done: your replacement has been sent');
  await expect(returns).toContainText('1Z999AA10123456784');
  await expect(returns).toContainText(`for size ${offered}`);
  await expect.poll(() => returnEmails(first.orderPath).then((s) => s.length)).toBe(4);

  // The second shopper changed their mind and asks for their money back.
  const second = await placeDemoOrder(page);
  const secondNumber = await orderNumber(page, second.orderPath);
  await shipAndDeliver(page, secondNumber);
  await page.goto(second.orderPath);
  const secondForm = returns.getByRole('form', { name: 'Return or exchange' });
  await secondForm.getByRole('group', { name: 'Which items?' }).getByRole('checkbox').first().check();
  await secondForm.getByRole('radio', { name: 'Changed my mind' }).check();
  await secondForm.getByRole('radio', { name: 'A refund' }).check();
  await secondForm.getByRole('button', { name: 'Send my request' }).click();
  await expect(returns.getByTestId('return-status')).toHaveText(
    'Requested: waiting for the shop to approve it',
  );

  dialog = await openReturn(page, secondNumber);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await dialog.getByRole('button', { name: 'Mark as received' }).click();
  await dialog
    .getByRole('form', { name: 'Receive' })
    .getByRole('button', { name: 'Mark as received' })
    .click();
  await expect(dialog.getByRole('button', { name: 'Refund', exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await dialog
    .getByRole('form', { name: 'Refund' })
    .getByRole('button', { name: 'Refund and close' })
    .click();
  await expect(dialog.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);

  await page.goto(second.orderPath);
  await expect(returns.getByTestId('return-status')).toHaveText('Done: refunded');
  await expect(returns.getByTestId('return-refunded')).toContainText(/Refunded \$\d/);

  // The product's admin page says why its units came back.
  await page.goto('/admin');
  await openAdminTab(page, 'Products');
  await page
    .getByTestId('product-row')
    .filter({ hasText: title })
    .first()
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  const report = page.getByRole('dialog', { name: 'Edit Product' }).getByTestId('product-returns');
  await expect(report).toContainText('Too small');
  await expect(report).toContainText('Changed my mind');
});

test('an exchange for a dearer colour: the shopper pays the difference, the owner packs the replacement and ships it', async ({
  page,
}) => {
  const order = await placeDemoOrder(page);
  const number = await orderNumber(page, order.orderPath);
  const lineText = (await page.getByTestId('order-line').first().textContent()) ?? '';
  const title = lineText.split(' (')[0] ?? '';

  // The owner prices the product's second colour 15.00 above the product.
  await signIn(page);
  await openAdminTab(page, 'Products');
  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(title);
  const row = page.getByTestId('product-row').filter({ hasText: title }).first();
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  const price = Number(await edit.getByLabel('Price', { exact: true }).inputValue());
  const dearer = await edit.getByLabel('Colour 2 name').inputValue();
  expect(dearer).not.toBe('');
  await edit.getByLabel(/^Colour 2 amount in/).fill((price + 15).toFixed(2));
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product updated successfully' })).toBeVisible();
  await shipAndDeliver(page, number);

  // The shopper asks for the other colour and is told the difference before sending.
  await page.goto(order.orderPath);
  const returns = page.getByTestId('order-returns');
  const form = returns.getByRole('form', { name: 'Return or exchange' });
  await form.getByRole('group', { name: 'Which items?' }).getByRole('checkbox').first().check();
  await form.getByRole('radio', { name: 'Not as pictured' }).check();
  await form.getByRole('radio', { name: /^Exchange/ }).check();
  const choice = form.getByLabel(/exchange for$/);
  const wanted = await choice.evaluate(
    (select, colour) =>
      [...(select as HTMLSelectElement).options].find((o) => o.text.includes(colour) && /to pay/.test(o.text))
        ?.value ?? '',
    dearer,
  );
  expect(wanted).not.toBe('');
  await choice.selectOption(wanted);
  await expect(form.getByTestId('exchange-difference')).toContainText(FIFTEEN);
  await form.getByRole('button', { name: 'Send my request' }).click();
  await expect(returns.getByTestId('return-status')).toHaveText(
    'Requested: waiting for the shop to approve it',
  );
  await expect(returns.getByTestId('return-difference')).toContainText(FIFTEEN);

  // Cancelling asks first; keeping it changes nothing and gives the focus back.
  const cancel = returns.getByRole('button', { name: /^Cancel this return/ });
  await cancel.click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this return?' });
  await expect(confirm.getByRole('button', { name: 'Keep the return' })).toBeFocused();
  await expectNoAxeViolations(page, 'the cancel confirmation');
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(cancel).toBeFocused();
  await expect(returns.getByTestId('return-status')).toHaveText(
    'Requested: waiting for the shop to approve it',
  );

  // Approved, the shopper pays the difference on the demo payment page and comes back to the order.
  let dialog = await openReturn(page, number);
  await expect(dialog.getByTestId('return-difference')).toContainText(FIFTEEN);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog.getByRole('button', { name: 'Mark as received' })).toBeVisible();
  await page.goto(order.orderPath);
  await returns.getByRole('button', { name: 'Pay the difference' }).click();
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_rd_/);
  await expect(
    page.getByRole('heading', { name: `Exchange on order ${number}: price difference` }),
  ).toBeVisible();
  await page.getByRole('button', { name: /^Pay \$15(\.00)?$/ }).click();
  await expect(page).toHaveURL(/\/order\/[^?]+\?token=.+&difference=paid/);
  await expect(page.getByTestId('difference-paid-notice')).toContainText('is paid');

  // The owner receives the parcel, prints the replacement's packing slip and ships it.
  dialog = await openReturn(page, number);
  await dialog.getByRole('button', { name: 'Mark as received' }).click();
  await dialog
    .getByRole('form', { name: 'Receive' })
    .getByRole('button', { name: 'Mark as received' })
    .click();
  const slipLink = dialog.getByRole('link', { name: /^Packing slip for the replacement/ });
  const slipPath = (await slipLink.getAttribute('href')) ?? '';
  expect(slipPath).toMatch(/^\/admin\/returns\/[^/]+\/packing-slip$/);
  await dialog.getByRole('button', { name: 'Ship the exchange' }).click();
  const ship = dialog.getByRole('form', { name: 'Ship the exchange' });
  await ship.getByLabel('Carrier').fill('TCS');
  await ship.getByLabel('Tracking number').fill('TCS7788001');
  await ship.getByRole('button', { name: 'Ship and close' }).click();
  await expect(dialog.getByRole('button', { name: 'Ship the exchange' })).toHaveCount(0);
  await expect(dialog.getByTestId('return-difference-status')).toContainText(/paid/i);

  await page.goto(slipPath);
  const slip = page.getByTestId('return-packing-slip');
  await expect(
    page.getByRole('heading', { name: `Packing slip · Exchange for order ${number}` }),
  ).toBeVisible();
  await expect(slip.getByTestId('return-packing-slip-lines')).toContainText(dearer);
  await expect(slip).toContainText('TCS7788001');
  await expect(slip.getByTestId('return-packing-slip-collect')).toHaveCount(0);
  await expectNoAxeViolations(page, 'the exchange packing slip');

  // The orders CSV names the replacement, its tracking and the difference, as the slip does.
  const today = new Date().toISOString().slice(0, 10);
  const csv = await (await page.request.get(`/api/admin/orders/export.csv?from=${today}&to=${today}`)).text();
  const [header = '', ...rows] = csv.trim().split('\r\n');
  const columns = header.split(',');
  const row1 = rows.map((r) => r.split(',')).find((cells) => cells[0] === number.slice(1));
  expect(row1?.[columns.indexOf('exchange_to')]).toContain(dearer);
  expect(row1?.[columns.indexOf('exchange_tracking')]).toBe('TCS TCS7788001');
  expect(row1?.[columns.indexOf('exchange_difference')]).toBe('15.00');

  // The order's dialog links to its return; the shopper's page and emails say each step.
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Orders' }).click();
  await page
    .getByTestId('order-row')
    .filter({ hasText: number })
    .getByRole('button', { name: number })
    .click();
  const orderDialog = page.getByRole('dialog', { name: `Order ${number}` });
  await orderDialog.getByTestId('order-dialog-returns').getByRole('link').first().click();
  await expect(page.getByRole('dialog', { name: `Return for order ${number}` })).toBeVisible();

  await page.goto(order.orderPath);
  await expect(returns.getByTestId('return-status')).toHaveText('Done: your replacement has been sent');
  await expect(returns).toContainText('TCS7788001');
  const subjects = await returnEmails(order.orderPath);
  expect(subjects.length).toBe(5);
});
