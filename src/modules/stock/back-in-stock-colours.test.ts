import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { setStock } from './stock.repository.js';
import { notifyBackInStock } from './stock-alerts.js';

/**
 * "Email me when it is back" per colour and size (decision 0036): a wish for Teal M waits on Teal's own M
 * when Teal counts its own, else on all colours' M; it is sent when that count comes back, and never because
 * another colour's did. The email names "Teal / M" and links to the teal version of the product.
 */
describe('back in stock per colour and size', () => {
  let store: TestStore;
  const clock = tickingClock();
  const LONG = 'Midnight Navy Blue Ombré';
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      { id: 'k1', title: 'Lawn Kurta', colors: JSON.stringify(['Teal', 'Maroon', 'Sea Green', LONG]) },
    ]);
    await insertProducts(store.handle.db, [{ id: 'plain', title: 'Plain Kurta' }]);
    // Teal and Maroon count their own M (sold out); Sea Green and the long one draw from all colours' M (sold out).
    await stockIs({ M: 0 }, { Teal: { M: 0 }, Maroon: { M: 0 } });
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'plain', { M: 0 }));
  });
  afterEach(async () => store.cleanup());

  const stockIs = (stock: Record<string, number>, colourStock: Record<string, Record<string, number>>) =>
    store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', stock, colourStock));
  const ask = (colour: string | undefined, size = 'M', productId = 'k1', email = 'ayesha@example.com') =>
    store.caller({ clock }).catalogue.notifyWhenBack({ productId, colour, size, email });
  const notify = () =>
    notifyBackInStock(store.handle.db, { now: clock.now(), publicUrl: 'https://shop.example' });
  const outbox = () =>
    store.handle.db.selectFrom('email_outbox').select(['to_address', 'subject', 'text_body']).execute();

  it('takes a wish per colour and size, by name or slug, and refuses a colour the product does not have', async () => {
    await ask('Teal');
    await ask(' teal ', 'M', 'k1', 'bilal@example.com');
    await ask('sea-green');
    await expect(ask(undefined)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Choose one of this product’s colours.',
    });
    await expect(ask('Mint')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Choose one of this product’s colours.',
    });
    await expect(ask('Teal', 'M', 'plain')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This product has no such colour.',
    });
    await ask(undefined, 'M', 'plain');
    await expect(ask('Teal', 'L')).rejects.toMatchObject({
      message: 'Teal / L is available now: you can add it to your cart.',
    });
    const waiting = await store.handle.db
      .selectFrom('stock_alerts')
      .select(['product_id', 'colour', 'size', 'email'])
      .orderBy('id')
      .execute();
    expect(waiting).toEqual([
      { product_id: 'k1', colour: 'teal', size: 'M', email: 'ayesha@example.com' },
      { product_id: 'k1', colour: 'teal', size: 'M', email: 'bilal@example.com' },
      { product_id: 'k1', colour: 'sea green', size: 'M', email: 'ayesha@example.com' },
      { product_id: 'plain', colour: '', size: 'M', email: 'ayesha@example.com' },
    ]);
  });

  it('sends the Teal M wish when Teal M comes back, not when Maroon M does; it names "Teal / M" and links the colour', async () => {
    await ask('Teal');
    await stockIs({ M: 0 }, { Teal: { M: 0 }, Maroon: { M: 4 } });
    expect(await notify()).toBe(0);
    // All colours' M coming back does not help Teal either: Teal counts its own.
    await stockIs({ M: 9 }, { Teal: { M: 0 }, Maroon: { M: 4 } });
    expect(await notify()).toBe(0);
    await stockIs({ M: 9 }, { Teal: { M: 2 }, Maroon: { M: 4 } });
    expect(await notify()).toBe(1);
    expect(await notify()).toBe(0);
    const [email] = await outbox();
    expect(email?.subject).toBe('Lawn Kurta in Teal / M is back — My Store');
    expect(email?.text_body).toContain('Lawn Kurta is back in Teal / M.');
    expect(email?.text_body).toContain('https://shop.example/product/k1?colour=teal');
  });

  it('sends a wish on a colour drawing from all colours when that count comes back; a long colour name is whole', async () => {
    await ask('Sea Green');
    await ask(LONG);
    await stockIs({ M: 0 }, { Teal: { M: 5 }, Maroon: { M: 0 } });
    expect(await notify()).toBe(0);
    await stockIs({ M: 1 }, { Teal: { M: 5 }, Maroon: { M: 0 } });
    expect(await notify()).toBe(2);
    const emails = (await outbox()).sort((a, b) => a.subject.localeCompare(b.subject));
    expect(emails.map((e) => e.subject)).toEqual([
      `Lawn Kurta in ${LONG} / M is back — My Store`,
      'Lawn Kurta in Sea Green / M is back — My Store',
    ]);
    expect(emails[1]?.text_body).toContain('https://shop.example/product/k1?colour=sea-green');
    expect(emails[0]?.text_body).toContain(
      `https://shop.example/product/k1?colour=${encodeURIComponent('midnight-navy-blue-ombré')}`,
    );
  });

  it('a colour given its own count later waits on that count', async () => {
    await ask('Sea Green');
    // The owner gives Sea Green a count of its own, still 0: all colours' M back does not send the wish.
    await stockIs({ M: 3 }, { Teal: { M: 0 }, Maroon: { M: 0 }, 'sea green': { M: 0 } });
    expect(await notify()).toBe(0);
    await stockIs({ M: 3 }, { Teal: { M: 0 }, Maroon: { M: 0 }, 'Sea Green': { M: 1 } });
    expect(await notify()).toBe(1);
  });

  it('a wish for a colour the product no longer has is closed without an email', async () => {
    await ask('Teal');
    await ask('Maroon', 'M', 'k1', 'bilal@example.com');
    // The owner drops Teal (its counts go with it) and Maroon comes back.
    await store.handle.db
      .updateTable('products')
      .set({ colors: JSON.stringify(['Maroon', 'Sea Green', LONG]) })
      .where('id', '=', 'k1')
      .execute();
    await store.handle.db.deleteFrom('size_stock').where('product_id', '=', 'k1').execute();
    expect(await notify()).toBe(1);
    expect((await outbox()).map((e) => [e.to_address, e.subject])).toEqual([
      ['bilal@example.com', 'Lawn Kurta in Maroon / M is back — My Store'],
    ]);
    const open = await store.handle.db
      .selectFrom('stock_alerts')
      .select('email')
      .where('notified_at', 'is', null)
      .execute();
    expect(open).toEqual([]);
    expect(await notify()).toBe(0);
  });
});
