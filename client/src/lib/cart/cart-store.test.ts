import { afterEach, describe, expect, it, vi } from 'vitest';

/** The cart keeps one line per product and size as the server's checkout merges them: 'm' and 'M' are one. */

/** A fresh copy of the store module, reading `saved` as what localStorage held. */
async function freshCart(saved: unknown = []) {
  const items = new Map<string, string>([['cart:v1', JSON.stringify(saved)]]);
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  });
  vi.resetModules();
  return (await import('./cart-store')).cart;
}

describe('the cart store', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('adds M and m to one line, within the per-line limit, and changes or removes it by either spelling', async () => {
    const cart = await freshCart();
    cart.add('k1', { size: 'M' });
    cart.add('k1', { size: 'm' });
    cart.add('k1', { size: ' M ' });
    cart.add('k1', { size: 'L' });
    expect(cart.lines()).toEqual([
      { productId: 'k1', colour: null, size: 'M', quantity: 3 },
      { productId: 'k1', colour: null, size: 'L', quantity: 1 },
    ]);
    for (let i = 0; i < 12; i += 1) cart.add('k1', { size: 'm' });
    expect(cart.lines()[0]).toEqual({ productId: 'k1', colour: null, size: 'M', quantity: 10 });
    cart.setQuantity('k1', { size: 'm' }, 4);
    expect(cart.lines()[0]?.quantity).toBe(4);
    cart.remove('k1', { size: 'm' });
    expect(cart.lines()).toEqual([{ productId: 'k1', colour: null, size: 'L', quantity: 1 }]);
  });

  it('merges a saved cart that holds one size twice (M×10 and m×10) into one line of 10', async () => {
    const cart = await freshCart([
      { productId: 'k1', size: 'M', quantity: 10 },
      { productId: 'k1', size: 'm', quantity: 10 },
      { productId: 'd1', size: null, quantity: 2 },
    ]);
    // A cart kept before colours (no colour) reads as lines without one.
    expect(cart.lines()).toEqual([
      { productId: 'k1', colour: null, size: 'M', quantity: 10 },
      { productId: 'd1', colour: null, size: null, quantity: 2 },
    ]);
  });
  it('keeps the fit finder measurements with a line: the latest of lines that differ only by them', async () => {
    const cart = await freshCart();
    cart.add('k1', { size: 'M' }, undefined, { cm: { chest: 96.52 } });
    cart.add('k1', { size: 'm' }, undefined, { cm: { chest: 99, waist: 81 } });
    // Adding without measurements keeps the ones the line has.
    cart.add('k1', { size: 'M' });
    cart.add('k2', { size: 'L' });
    expect(cart.lines()).toEqual([
      { productId: 'k1', colour: null, size: 'M', quantity: 3, fit: { cm: { chest: 99, waist: 81 } } },
      { productId: 'k2', colour: null, size: 'L', quantity: 1 },
    ]);
    // Only placing the order sends them; a quote never does.
    const { linesForOrder, linesForQuote } = await import('./cart-store');
    expect(linesForQuote(cart.lines()).map((l) => 'fit' in l)).toEqual([false, false]);
    expect(linesForOrder(cart.lines()).map((l) => ('fit' in l ? l.fit : null))).toEqual([
      { cm: { chest: 99, waist: 81 } },
      null,
    ]);
  });

  it('reads saved measurements as checkout would take them, dropping (never the line) what it would refuse', async () => {
    const cart = await freshCart([
      { productId: 'k1', size: 'M', quantity: 1, fit: { cm: { chest: 96 } } },
      { productId: 'k1', size: 'm', quantity: 1, fit: { cm: { chest: 98 } } },
      { productId: 'k2', size: 'S', quantity: 1, fit: { cm: { chest: 9000 } } },
      { productId: 'k3', size: 'S', quantity: 1, fit: { cm: { height: 170 } } },
    ]);
    expect(cart.lines()).toEqual([
      { productId: 'k1', colour: null, size: 'M', quantity: 2, fit: { cm: { chest: 98 } } },
      { productId: 'k2', colour: null, size: 'S', quantity: 1 },
      { productId: 'k3', colour: null, size: 'S', quantity: 1 },
    ]);
  });
});
