import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

/**
 * The per-line limit (10) holds per product and size, whatever the size's spelling: sizes are checked
 * ignoring case, so lines are merged the same way, under the product's own spelling, and capped as any
 * over-limit merge is.
 */
describe('checkout lines of one size spelled differently', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500, sizes: '["S","M","L"]' },
      { id: 'f1', title: 'Free Size Shawl', price_minor: 3000, sizes: '["Free size"]' },
    ]);
  });
  afterEach(async () => store.cleanup());

  const line = (productId: string, size: string | null, quantity: number) => ({ productId, size, quantity });
  const shape = (lines: Array<{ productId: string; size: string | null; quantity: number }>) =>
    lines.map((l) => [l.productId, l.size, l.quantity]);

  it('quote: M×10 plus m×10 is one line of M, capped at 10', async () => {
    const quote = await store.caller().checkout.quote({ lines: [line('k1', 'M', 10), line('k1', 'm', 10)] });
    expect(shape(quote.lines)).toEqual([['k1', 'M', 10]]);
    expect(quote).toMatchObject({ ok: true, totalMinor: 85_000 });
  });

  it("quote: ' M ', 'm' and 'M' are one line under the product's spelling; other sizes stay apart", async () => {
    const quote = await store.caller().checkout.quote({
      lines: [
        line('k1', ' M ', 2),
        line('k1', 'm', 3),
        line('k1', 'L', 10),
        line('f1', 'FREE SIZE', 4),
        line('k1', 'M', 1),
        line('f1', ' free size', 9),
      ],
    });
    expect(shape(quote.lines)).toEqual([
      ['k1', 'M', 6],
      ['k1', 'L', 10],
      ['f1', 'Free size', 10],
    ]);
    expect(quote.ok).toBe(true);
  });

  it('quote: a size the product lacks, in two spellings, is one line with its problem', async () => {
    const quote = await store.caller().checkout.quote({ lines: [line('k1', 'xl', 6), line('k1', 'XL', 6)] });
    expect(quote.lines).toEqual([
      expect.objectContaining({ productId: 'k1', size: 'xl', quantity: 10, problem: 'size_unavailable' }),
    ]);
  });

  it('createSession: M×10 plus m×10 orders one line of 10 M, never 20', async () => {
    await store.caller().checkout.createSession({ lines: [line('k1', 'M', 10), line('k1', 'm', 10)] });
    const lines = await store.handle.db
      .selectFrom('order_lines')
      .select(['product_id', 'size', 'quantity', 'line_total_minor'])
      .execute();
    expect(lines).toEqual([{ product_id: 'k1', size: 'M', quantity: 10, line_total_minor: 85_000 }]);
    const [order] = await store.handle.db.selectFrom('orders').select('subtotal_minor').execute();
    expect(order?.subtotal_minor).toBe(85_000);
  });

  it("createSession: ' M ' and 'm' are ordered under the product's spelling", async () => {
    await store.caller().checkout.createSession({ lines: [line('k1', ' M ', 1), line('k1', 'm', 2)] });
    const lines = await store.handle.db.selectFrom('order_lines').select(['size', 'quantity']).execute();
    expect(lines).toEqual([{ size: 'M', quantity: 3 }]);
  });
});
