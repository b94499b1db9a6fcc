import { signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { expect, type Page, test } from './support/test';

type SearchItem = {
  id: string;
  sizes: string[];
  soldOut: boolean;
  soldOutSizes?: string[];
  colours?: unknown;
};

/** A demo product without colours and a size of it that can be bought now, from the storefront's own search. */
async function buyableLine(page: Page): Promise<{ productId: string; size: string | null }> {
  const input = encodeURIComponent(JSON.stringify({ limit: 48 }));
  const res = await page.request.get(`/api/trpc/catalogue.search?input=${input}`);
  const body = (await res.json()) as { result: { data: { items: SearchItem[] } } };
  for (const item of body.result.data.items) {
    if (item.colours || item.soldOut) continue;
    const size = item.sizes.find((s) => !(item.soldOutSizes ?? []).includes(s));
    if (size !== undefined || item.sizes.length === 0) return { productId: item.id, size: size ?? null };
  }
  throw new Error('The demo catalogue has no product to buy');
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

test('the owner offers cash on delivery in Pakistan with a fee, then confirms, ships and collects a cash order; the list and the timeline show each step', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(90_000);
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
  const countries = form.getByLabel('Cash on delivery: countries');
  if ((await form.getByRole('button', { name: 'Remove PK' }).count()) === 0) {
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
  await expect(form.getByRole('button', { name: 'Remove PK' })).toHaveCount(1);

  try {
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
    await page.getByLabel('Method', { exact: true }).selectOption({ label: 'Cash on delivery' });
    const row = page.getByTestId('order-row').filter({ hasText: `#${placed.number}` });
    await expect(row).toContainText('Awaiting confirmation');
    await expect(row.getByTestId('order-row-method')).toHaveText('Cash on delivery');
    await page.getByLabel('Step', { exact: true }).selectOption({ label: 'Awaiting confirmation' });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('orders-summary-cash')).toContainText('order');
    await page.getByLabel('Step', { exact: true }).selectOption({ label: 'Any step' });
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
    await dialog.getByRole('button', { name: /close/i }).first().click();

    // The list's figures: one more cash-on-delivery order finished, none of them returned.
    await expect(row).toContainText('Delivered, cash collected');
    await expect
      .poll(() => returnToOrigin(page))
      .toEqual({ returned: before.returned, finished: before.finished + 1 });
  } finally {
    // Cash on delivery off again, so the other journeys see the store as they expect it.
    await mutate(page, 'admin.settings.updatePaymentMethods', await currentSettingsWithCodOff(page));
  }
});

/** The saved payment methods as the form sends them, with cash on delivery turned off. */
async function currentSettingsWithCodOff(page: Page): Promise<unknown> {
  const res = await page.request.get('/api/trpc/admin.settings.paymentMethods');
  const body = (await res.json()) as {
    result: {
      data: {
        cashOnDelivery: { feeMinor: number; maxOrderMinor: number | null } & Record<string, unknown>;
      } & Record<string, unknown>;
    };
  };
  const { feeMinor: _fee, maxOrderMinor: _max, ...cod } = body.result.data.cashOnDelivery;
  return { ...body.result.data, cashOnDelivery: { ...cod, enabled: false, fee: '0', maxOrder: '' } };
}
