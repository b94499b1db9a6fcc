import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { emailsOfOrder } from '../email/outbox.repository.js';
import { setStock } from './stock.repository.js';
import { notifyBackInStock } from './stock-alerts.js';

/** "Email me when it is back": one email per wish, when the size can be bought again, through the outbox. */
describe('back in stock', () => {
  let store: TestStore;
  const clock = tickingClock();
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', { M: 0, L: 2 }));
  });
  afterEach(async () => store.cleanup());

  const ask = (size: string, email = 'ayesha@example.com') =>
    store.caller({ clock }).catalogue.notifyWhenBack({ productId: 'k1', size, email });
  const notify = () =>
    notifyBackInStock(store.handle.db, { now: clock.now(), publicUrl: 'https://shop.example' });
  const outbox = () =>
    store.handle.db
      .selectFrom('email_outbox')
      .select(['kind', 'to_address', 'subject', 'text_body'])
      .execute();

  it('takes a wish for a sold-out size once per address, and refuses sizes that can be bought', async () => {
    await ask('M');
    await ask('M'); // the same answer again: nothing tells a shopper who else is waiting
    await ask('M', 'bilal@example.com');
    await expect(ask('L')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'L is available now: you can add it to your cart.',
    });
    await expect(ask('S')).rejects.toMatchObject({ code: 'BAD_REQUEST' }); // untracked: always available
    await expect(ask('XXXL')).rejects.toMatchObject({ message: 'This product has no such size.' });
    await expect(ask('M', 'not-an-email')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const waiting = await store.handle.db
      .selectFrom('stock_alerts')
      .select(['email', 'size'])
      .orderBy('id')
      .execute();
    expect(waiting).toEqual([
      { email: 'ayesha@example.com', size: 'M' },
      { email: 'bilal@example.com', size: 'M' },
    ]);
    expect(await notify()).toBe(0);
  });

  it('emails each waiting shopper once when stock returns, with the product link', async () => {
    await ask('M');
    await ask('M', 'bilal@example.com');
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', { M: 3, L: 2 }));
    expect(await notify()).toBe(2);
    expect(await notify()).toBe(0);
    const emails = await outbox();
    expect(emails.map((e) => [e.kind, e.to_address])).toEqual([
      ['back_in_stock', 'ayesha@example.com'],
      ['back_in_stock', 'bilal@example.com'],
    ]);
    expect(emails[0]?.subject).toBe('Mint Lawn Kurta in M is back — My Store');
    expect(emails[0]?.text_body).toContain('https://shop.example/product/k1');
    expect(await emailsOfOrder(store.handle.db, 'k1')).toEqual([]);
    // Sold out again and back again: a new wish is needed for a new email.
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', { M: 0, L: 2 }));
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', { M: 1, L: 2 }));
    expect(await notify()).toBe(0);
  });

  it('counts an address once whatever its case: one wish per person and size, one email', async () => {
    await ask('M', 'BIS1@Example.com');
    await ask('M', ' bis1@example.COM ');
    await ask('M', 'bis1@example.com');
    const waiting = await store.handle.db.selectFrom('stock_alerts').select(['email', 'size']).execute();
    expect(waiting).toEqual([{ email: 'bis1@example.com', size: 'M' }]);
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', { M: 3, L: 2 }));
    expect(await notify()).toBe(1);
    expect((await outbox()).map((e) => e.to_address)).toEqual(['bis1@example.com']);
  });
});
