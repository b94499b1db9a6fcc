import { signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { expect, type Page, test } from './support/test';

type SearchItem = {
  id: string;
  sizes: string[];
  soldOut: boolean;
  soldOutSizes?: string[];
  colours?: Array<{ name: string; soldOutSizes?: string[] }>;
};

type Line = { productId: string; colour?: string; size: string | null };

/** A demo product's size (in its first colour, if it has colours) that can be bought now, from the search. */
async function buyableLine(page: Page): Promise<Line> {
  const input = encodeURIComponent(JSON.stringify({ limit: 48 }));
  const res = await page.request.get(`/api/trpc/catalogue.search?input=${input}`);
  const body = (await res.json()) as { result: { data: { items: SearchItem[] } } };
  for (const item of body.result.data.items) {
    if (item.soldOut) continue;
    const colour = item.colours?.[0];
    const soldOut = [...(item.soldOutSizes ?? []), ...(colour?.soldOutSizes ?? [])];
    const size = item.sizes.find((s) => !soldOut.includes(s));
    if (size === undefined && item.sizes.length > 0) continue;
    return { productId: item.id, ...(colour ? { colour: colour.name } : {}), size: size ?? null };
  }
  throw new Error(`The demo catalogue has no product to buy: ${JSON.stringify(body).slice(0, 500)}`);
}

/** A tRPC mutation from the page, as its own forms send them (JSON POST from the store's origin). */
async function mutate<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const res = await page.evaluate(
    async ({ procedure, input }) => {
      const r = await fetch(`/api/trpc/${procedure}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      return { status: r.status, body: await r.text() };
    },
    { procedure, input },
  );
  expect(res.status, res.body).toBe(200);
  return (JSON.parse(res.body) as { result: { data: T } }).result.data;
}

/** "25 % (1 of 4)" → returned 1 of 4 finished; none finished yet → 0 of 0. */
async function returnToOrigin(page: Page): Promise<{ returned: number; finished: number }> {
  const text = (await page.getByTestId('orders-summary-rto').textContent()) ?? '';
  const match = /\((\d+) of (\d+)\)/.exec(text);
  return match ? { returned: Number(match[1]), finished: Number(match[2]) } : { returned: 0, finished: 0 };
}

// Both tests change the payment methods and read the list's figures: one after the other.
test.describe.configure({ mode: 'default' });

// Cash on delivery and transfers off again, so the other journeys see the store as they expect it: in a
// hook of its own, which runs (with its own time) however the tests ended.
test.afterAll(async ({ browser }) => {
  const page = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await signIn(page);
  await changePaymentMethods(page, {
    cod: { enabled: false },
    bank: { enabled: false },
    limits: { returnsBeforeRefusal: 2 },
  });
  await page.close();
});

test('the owner offers cash on delivery in Pakistan with a fee, then confirms, ships and collects a cash order; the list and the timeline show each step', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);

  // Settings → Payment methods: cash on delivery for PK, a fee of 2.00 in the store's currency.
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page
    .getByRole('tablist', { name: 'Settings sections' })
    .getByRole('tab', { name: 'Payment methods' })
    .click();
  const form = page.getByRole('form', { name: 'Payment methods' });
  await expect(form).toBeVisible();
  await form.getByLabel('Offer cash on delivery').check();
  const cod = form.getByRole('group', { name: 'Cash on delivery', exact: true });
  const countries = cod.getByLabel('Cash on delivery: countries');
  if ((await cod.getByRole('button', { name: 'Remove PK' }).count()) === 0) {
    await countries.fill('PK');
    await countries.press('Enter');
  }
  const fee = form.getByLabel(/^Fee \(/);
  // Checked in the browser by the shared schema, the message beside its field.
  await fee.fill('two');
  await form.getByRole('button', { name: 'Save payment methods' }).click();
  await expect(fee).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Enter an amount like 0 or 2.00')).toBeVisible();
  await fee.fill('2.00');
  await expectNoAxeViolations(page, 'the payment methods settings');
  await form.getByRole('button', { name: 'Save payment methods' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Payment methods saved' })).toBeVisible();
  // Saved: a fresh page reads them back from the server.
  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page
    .getByRole('tablist', { name: 'Settings sections' })
    .getByRole('tab', { name: 'Payment methods' })
    .click();
  await expect(form.getByLabel('Offer cash on delivery')).toBeChecked();
  await expect(form.getByLabel(/^Fee \(/)).toHaveValue('2.00');
  await expect(cod.getByRole('button', { name: 'Remove PK' })).toHaveCount(1);

  // A shopper in Lahore orders, paying cash at the door.
  const line = await buyableLine(page);
  const placed = await mutate<{ orderId: string; number: number }>(page, 'checkout.placeOrder', {
    lines: [{ ...line, quantity: 1 }],
    method: 'cash_on_delivery',
    customer: {
      email: `cod-${Date.now()}@shopper.example`,
      name: 'Ayesha Khan',
      phone: '03001234567',
      address: { line1: '12 Mall Road', city: 'Lahore', country: 'PK' },
    },
  });

  // The orders list: filtered to cash on delivery, the order with its method and step.
  await page.getByRole('tab', { name: 'Orders' }).click();
  await page
    .getByRole('combobox', { name: 'Method', exact: true })
    .selectOption({ label: 'Cash on delivery' });
  const row = page.getByTestId('order-row').filter({ hasText: `#${placed.number}` });
  await expect(row).toContainText('Awaiting confirmation');
  await expect(row.getByTestId('order-row-method')).toHaveText('Cash on delivery');
  await page
    .getByRole('combobox', { name: 'Step', exact: true })
    .selectOption({ label: 'Awaiting confirmation' });
  await expect(row).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Step', exact: true }).selectOption({ label: 'Any step' });
  const before = await returnToOrigin(page);

  // The order: its method, the phone to call, the fee, and its step.
  await row.getByRole('button', { name: `#${placed.number}` }).click();
  const dialog = page.getByRole('dialog', { name: `Order #${placed.number}` });
  const stage = dialog.getByTestId('order-dialog-stage');
  await expect(stage).toHaveText('Awaiting confirmation');
  await expect(dialog.getByTestId('order-payment-method')).toHaveText('Cash on delivery');
  await expect(dialog.getByRole('link', { name: /\+92\s?300\s?1234567|\+923001234567/ })).toHaveAttribute(
    'href',
    'tel:+923001234567',
  );
  await expect(dialog.getByTestId('order-fee')).toHaveText('$2');
  await expectNoAxeViolations(page, 'the cash-on-delivery order dialog');

  // Confirmed by hand after a call.
  await dialog.getByRole('button', { name: 'Confirm (after calling)' }).click();
  await dialog.getByRole('button', { name: 'Confirm the order' }).click();
  await expect(stage).toHaveText('Confirmed, cash due');

  // Shipped with the existing action.
  await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
  await dialog.getByLabel('Carrier').fill('TCS');
  await dialog.getByLabel('Tracking number').fill('7700123456');
  await dialog.getByRole('button', { name: 'Save shipment' }).click();
  await expect(stage).toHaveText('Shipped');

  // Confirmed and on its way, its cash is awaited: the list's figures say so, per currency.
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(row).toContainText('Shipped');
  await expect(page.getByTestId('orders-summary-cash')).toHaveText(/\$\d[\d,]*\.\d{2} \(\d+ orders?\)/);
  await row.getByRole('button', { name: `#${placed.number}` }).click();

  // The courier hands over the cash: the amount is prefilled with the total.
  await dialog.getByRole('button', { name: 'Record cash collected' }).click();
  const amount = dialog.getByLabel(/^Amount collected/);
  await expect(amount).not.toHaveValue('');
  await dialog
    .getByRole('form', { name: 'Record cash collected' })
    .getByRole('button', { name: 'Record cash collected' })
    .click();
  await expect(stage).toHaveText('Delivered, cash collected');
  await expect(dialog.getByTestId('order-payment')).toContainText('Cash collected');

  // The timeline tells it in order: placed, confirmed, shipped, cash collected.
  const timeline = dialog.getByTestId('order-timeline');
  await expect(timeline).toContainText(/confirmed/i);
  await expect(timeline).toContainText('Shipped');
  await expect(timeline).toContainText(/cash collected/i);
  await expectNoAxeViolations(page, 'the collected order dialog');
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

  // The list's figures: one more cash-on-delivery order finished, none of them returned.
  await expect(row).toContainText('Delivered, cash collected');
  await expect
    .poll(() => returnToOrigin(page))
    .toEqual({ returned: before.returned, finished: before.finished + 1 });
});

type StoredSettings = {
  cashOnDelivery: { feeMinor: number; maxOrderMinor: number | null } & Record<string, unknown>;
  bankTransfer: Record<string, unknown>;
  limits: Record<string, unknown>;
} & Record<string, unknown>;

/**
 * Saves the payment methods as they are with some changes, through the owner's own procedure: the stored
 * fee and maximum go back as the form's amounts.
 */
async function changePaymentMethods(
  page: Page,
  change: { cod?: Record<string, unknown>; bank?: Record<string, unknown>; limits?: Record<string, unknown> },
): Promise<void> {
  const res = await page.request.get('/api/trpc/admin.settings.paymentMethods');
  const stored = ((await res.json()) as { result: { data: StoredSettings } }).result.data;
  const { feeMinor, maxOrderMinor, ...cod } = stored.cashOnDelivery;
  const currency = String(cod.currency);
  const amount = (minor: number) => (currency === 'usd' ? (minor / 100).toFixed(2) : String(minor));
  await mutate(page, 'admin.settings.updatePaymentMethods', {
    ...stored,
    cashOnDelivery: {
      ...cod,
      fee: amount(feeMinor),
      maxOrder: maxOrderMinor === null ? '' : amount(maxOrderMinor),
      ...change.cod,
    },
    bankTransfer: { ...stored.bankTransfer, ...change.bank },
    limits: { ...stored.limits, ...change.limits },
  });
}

test('a returned cash order puts its stock back and its phone can be trusted again; a bank transfer is recorded and refunded by hand', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  await changePaymentMethods(page, {
    cod: { enabled: true, countries: ['PK'], currency: 'usd', fee: '2.00' },
    bank: {
      enabled: true,
      countries: ['PK'],
      accountDetails: 'Meezan Bank · Sitara Stitched · PK36MEZN0001234567890123',
    },
    // One parcel back refuses the phone, so the owner has a refusal to lift.
    limits: { returnsBeforeRefusal: 1 },
  });
  const line = await buyableLine(page);
  const order = (method: string, phone: string) =>
    mutate<{ orderId: string; number: number }>(page, 'checkout.placeOrder', {
      lines: [{ ...line, quantity: 1 }],
      method,
      customer: {
        email: `${method}-${Date.now()}@shopper.example`,
        name: 'Bilal Ahmed',
        phone,
        address: { line1: '4 Canal View', city: 'Lahore', country: 'PK' },
      },
    });
  const cash = await order('cash_on_delivery', '03011234567');
  const bank = await order('bank_transfer', '03021234567');

  await page.getByRole('tab', { name: 'Orders' }).click();
  const before = await returnToOrigin(page);

  // The cash order is confirmed, then comes back refused: the reason, and its stock put back.
  const cashRow = page.getByTestId('order-row').filter({ hasText: `#${cash.number}` });
  await cashRow.getByRole('button', { name: `#${cash.number}` }).click();
  const cashDialog = page.getByRole('dialog', { name: `Order #${cash.number}` });
  const cashStage = cashDialog.getByTestId('order-dialog-stage');
  await cashDialog.getByRole('button', { name: 'Confirm (after calling)' }).click();
  await cashDialog.getByRole('button', { name: 'Confirm the order' }).click();
  await expect(cashStage).toHaveText('Confirmed, cash due');
  await cashDialog.getByRole('button', { name: 'Returned to origin' }).click();
  const returned = cashDialog.getByRole('form', { name: 'Returned to origin' });
  await returned.getByRole('button', { name: 'Record the return' }).click();
  await expect(returned.getByText('Say why it came back')).toBeVisible();
  await returned.getByLabel('Why it came back').fill('Refused at the door');
  await expect(returned.getByLabel('Put the stock back')).toBeChecked();
  await returned.getByRole('button', { name: 'Record the return' }).click();
  await expect(cashStage).toHaveText('Returned to origin');
  await expect(cashDialog.getByTestId('order-payment')).toContainText('Refused at the door');
  await expect(cashDialog.getByTestId('order-payment')).toContainText('stock put back');
  await expect(cashDialog.getByTestId('order-timeline')).toContainText(/returned/i);
  // The owner trusts the phone again.
  await cashDialog.getByRole('button', { name: 'Lift the refusal' }).click();
  await cashDialog
    .getByRole('form', { name: 'Lift the refusal' })
    .getByRole('button', { name: 'Lift the refusal' })
    .click();
  await expect(
    cashDialog.getByRole('status').filter({ hasText: 'orders from +923011234567 are taken again' }),
  ).toHaveCount(1);
  // Trusted again, the phone has no refusal left to lift.
  await expect(cashDialog.getByRole('button', { name: 'Lift the refusal' })).toHaveCount(0);
  await cashDialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect
    .poll(() => returnToOrigin(page))
    .toEqual({ returned: before.returned + 1, finished: before.finished + 1 });

  // The transfer arrives: the reference and the day; then part of it is paid back by hand.
  const bankRow = page.getByTestId('order-row').filter({ hasText: `#${bank.number}` });
  await expect(bankRow.getByTestId('order-row-method')).toHaveText('Bank transfer');
  await bankRow.getByRole('button', { name: `#${bank.number}` }).click();
  const bankDialog = page.getByRole('dialog', { name: `Order #${bank.number}` });
  const bankStage = bankDialog.getByTestId('order-dialog-stage');
  await expect(bankStage).toHaveText('Awaiting transfer');
  await bankDialog.getByRole('button', { name: 'Record transfer received' }).click();
  const transfer = bankDialog.getByRole('form', { name: 'Record transfer received' });
  await transfer.getByLabel('Transfer reference').fill('TRX-778899');
  await transfer.getByRole('button', { name: 'Record transfer' }).click();
  await expect(bankStage).toHaveText('Paid');
  await expect(bankDialog.getByTestId('order-payment')).toContainText('TRX-778899');

  await bankDialog.getByRole('button', { name: 'Refund', exact: true }).click();
  const refund = bankDialog.getByRole('form', { name: 'Refund' });
  await expect(refund.getByTestId('manual-refund-note')).toContainText('Pay it back by hand');
  await refund.getByLabel('An amount').check();
  await refund.getByLabel(/^Amount \(/).fill('5');
  await refund.getByRole('button', { name: 'Record refund of $5' }).click();
  await expect(refund.getByText('Say how the money was paid back')).toBeVisible();
  await refund.getByLabel('Paid back via').fill('Bank transfer');
  await refund.getByLabel(/^Note/).fill('Sent back from the shop account');
  await expectNoAxeViolations(page, 'the manual refund form');
  await refund.getByRole('button', { name: 'Record refund of $5' }).click();
  const refunds = bankDialog.getByTestId('refunds');
  await expect(refunds).toContainText('paid back by hand via Bank transfer');
  await expect(refunds).toContainText('Note: Sent back from the shop account');
});
