import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COLOURS } from '../shared/colours.js';
import { insertProducts } from '../test-support/fixtures.js';
import {
  type ErrorBody,
  expectClearAnswer,
  type HostileHarness,
  hostileHarness,
  type Procedure,
} from '../test-support/hostile-input.js';

/**
 * Colours a shopper or an owner should not be able to give (decision 0036), sent over HTTP as the tRPC
 * client sends them, on the engine under test: each is refused with a 4xx that says what is wrong, in the
 * field it is wrong in, and nothing is written.
 */
const call = (path: string, type: 'query' | 'mutation'): Procedure => ({ path, type, input: null });
const create = call('admin.products.create', 'mutation');
const quote = call('checkout.quote', 'query');
const checkout = call('checkout.createSession', 'mutation');
const notify = call('catalogue.notifyWhenBack', 'mutation');

const baseFields = {
  title: 'Lawn Kurta',
  description: 'Breezy lawn',
  sku: 'LK-1',
  price: '85.00',
  currency: 'usd',
  sizes: ['S', 'M', 'L'],
  tags: [],
};

/** The messages of a refused input, wherever the answer put them. */
function messagesOf(res: LightMyRequestResponse): string[] {
  const body = res.json() as ErrorBody;
  const zod = body.error.data?.zodError;
  return [
    body.error.message,
    ...(zod ? [...zod.formErrors, ...Object.values(zod.fieldErrors).flatMap((m) => m ?? [])] : []),
  ];
}

describe('hostile colours over HTTP', () => {
  let h: HostileHarness;
  beforeAll(async () => {
    h = await hostileHarness();
    await insertProducts(h.store.handle.db, [
      { id: 'k1', title: 'Teal Lawn Kurta', colors: '["Teal","Maroon"]', sku: 'K1' },
    ]);
  });
  afterAll(async () => h.close());

  const refused = async (procedure: Procedure, input: unknown, message: string | RegExp) => {
    const res = await h.send(procedure, input);
    expectClearAnswer(res, `${procedure.path} ${JSON.stringify(input).slice(0, 200)}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    const messages = messagesOf(res);
    expect(
      messages.some((m) => (typeof message === 'string' ? m === message : message.test(m))),
      `${message} in ${JSON.stringify(messages)}`,
    ).toBe(true);
    return res;
  };
  const product = (over: Record<string, unknown>) => ({ fields: { ...baseFields, ...over } });
  const products = async () =>
    (await h.store.handle.db.selectFrom('products').select('id').execute()).map((r) => r.id).sort();

  it('refuses colour prices below zero or with too many decimals', async () => {
    await refused(
      create,
      product({ colors: [{ name: 'Teal', price: '-1' }] }),
      'Enter a price of 0 or more, like 49.99',
    );
    await refused(
      create,
      product({ colors: [{ name: 'Teal', price: '12.345' }] }),
      'USD prices have at most 2 decimals',
    );
    await refused(
      create,
      product({ currency: 'jpy', price: '1000', colors: [{ name: 'Teal', price: '1000.5' }] }),
      'JPY prices are whole numbers: no decimals',
    );
    await refused(
      create,
      product({ colors: [{ name: 'Teal', price: 'free' }] }),
      'Enter a price of 0 or more, like 49.99',
    );
    expect(await products()).toEqual(['k1', 'p1']);
  });

  it(`refuses more than ${MAX_COLOURS} colours: 21, and 50+`, async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `Shade ${i + 1}`);
    await refused(create, product({ colors: names(21) }), `At most ${MAX_COLOURS} colours`);
    await refused(
      create,
      product({ colors: names(55).map((name) => ({ name })) }),
      `At most ${MAX_COLOURS} colours`,
    );
    await refused(create, product({ colors: names(500) }), /At most/);
    const twenty = await h.send(create, product({ sku: 'LK-20', colors: names(20) }));
    expect(twenty.statusCode, twenty.body.slice(0, 300)).toBe(200);
    // Today's plain list counts its colours once repeats and blanks are dropped, as it always did.
    const repeated = [...names(20), 'shade 1', ' SHADE 2 ', '', '  '];
    const plain = await h.send(create, product({ sku: 'LK-21', colors: repeated }));
    expect(plain.statusCode, plain.body.slice(0, 300)).toBe(200);
    await refused(
      create,
      product({ colors: [...names(20), { name: 'Shade 21' }] }),
      `At most ${MAX_COLOURS} colours`,
    );
  });

  it('refuses one colour given twice in any case or spacing', async () => {
    for (const [a, b, said] of [
      ['Teal', ' teal ', 'teal'],
      ['Teal', 'TEAL', 'TEAL'],
      ['Sea Green', 'sea-green', 'sea-green'],
      ['Sea Green', 'sea   green', 'sea green'],
      ['Sea Green', 'Sea_Green', 'Sea_Green'],
    ] as const) {
      await refused(
        create,
        product({ colors: [{ name: a }, { name: b }] }),
        `"${said}" is the same colour as "${a}"`,
      );
    }
    // A plain list (today's catalogue files) keeps its old rule: a repeat is dropped, not refused.
    const res = await h.send(create, product({ sku: 'LK-PLAIN', colors: ['Teal', ' teal ', 'TEAL'] }));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(
      (res.json() as { result: { data: { colors: Array<{ name: string }> } } }).result.data.colors.map(
        (c) => c.name,
      ),
    ).toEqual(['Teal']);
    await refused(
      create,
      product({ colors: [{ name: '   ' }, { name: '---' }] }),
      '"---" is not a colour name',
    );
  });

  it('refuses a swatch that is not a colour', async () => {
    for (const hex of ['red', '#12345g', '#1234', 'javascript:alert(1)', '#1f7a6d; background:url(x)']) {
      await refused(
        create,
        product({ colors: [{ name: 'Teal', hex }] }),
        'A swatch is a colour like #1f7a6d',
      );
    }
  });

  it('refuses stock for a colour or a size the product does not have, or for one colour twice', async () => {
    await refused(
      create,
      product({ colors: ['Teal'], colourStock: { Mint: { M: 1 } } }),
      'Stock for Mint, a colour this product does not have',
    );
    await refused(
      create,
      product({ colors: ['Teal'], colourStock: { Teal: { XXXL: 1 } } }),
      'Stock for Teal XXXL, a size this product does not have',
    );
    await refused(
      create,
      product({ colors: ['Teal'], colourStock: { Teal: { M: 1 }, ' TEAL': { M: 5 } } }),
      'Stock for  TEAL is given twice (also as Teal)',
    );
    await refused(
      create,
      product({ colors: ['Teal'], colourStock: { Teal: { M: -1 } } }),
      'Stock cannot be negative',
    );
    await refused(
      create,
      product({ colourStock: { Teal: { M: 1 } } }),
      'Stock for Teal, a colour this product does not have',
    );
  });

  it('a cart line with an unknown, a missing or an unwanted colour is flagged, and checkout refuses it', async () => {
    const lines = [
      { productId: 'k1', colour: 'Mint', size: 'M', quantity: 1 },
      { productId: 'k1', size: 'M', quantity: 1 },
      { productId: 'p1', colour: 'Teal', size: 'M', quantity: 1 },
      { productId: 'k1', colour: 'x'.repeat(101), size: 'M', quantity: 1 },
    ];
    const res = await h.send(quote, { lines: lines.slice(0, 3) });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const q = (
      res.json() as { result: { data: { lines: Array<{ colour: string | null; problem: string }> } } }
    ).result.data;
    expect(q.lines.map((l) => [l.colour, l.problem])).toEqual([
      ['Mint', 'colour_unavailable'],
      [null, 'colour_required'],
      ['Teal', 'colour_unavailable'],
    ]);
    await refused(
      checkout,
      { lines: [lines[0]] },
      'Teal Lawn Kurta: This colour is no longer offered. Please pick another colour or remove it.',
    );
    await refused(
      checkout,
      { lines: [lines[1]] },
      'Teal Lawn Kurta: Please choose a colour for this product.',
    );
    await refused(checkout, { lines: [lines[2]] }, /^Mint Lawn Kurta: This colour is no longer offered/);
    await refused(quote, { lines: [lines[3]] }, /at most 100|<=100|Too big/i);
    expect(await h.store.handle.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });

  it('a back-in-stock wish for a colour the product does not have is refused', async () => {
    const wish = { productId: 'k1', size: 'M', email: 'ayesha@example.com' };
    await h.store.handle.db
      .insertInto('size_stock')
      .values({ product_id: 'k1', colour: '', size: 'M', on_hand: 0, reserved: 0 })
      .execute();
    await refused(notify, { ...wish, colour: 'Mint' }, 'Choose one of this product’s colours.');
    await refused(notify, wish, 'Choose one of this product’s colours.');
    await refused(notify, { ...wish, productId: 'p1', colour: 'Teal' }, 'This product has no such colour.');
    const ok = await h.send(notify, { ...wish, colour: 'teal' });
    expect(ok.statusCode, ok.body.slice(0, 300)).toBe(200);
    expect(await h.store.handle.db.selectFrom('stock_alerts').select(['colour', 'size']).execute()).toEqual([
      { colour: 'teal', size: 'M' },
    ]);
  });
});
