import { afterEach, describe, expect, it, vi } from 'vitest';

/** The discount code kept with the cart (decision 0037): what survives a reload and what is sent. */

async function freshCode(saved: unknown) {
  const items = new Map<string, string>(saved === undefined ? [] : [['cart:code:v1', JSON.stringify(saved)]]);
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  });
  vi.resetModules();
  return { module: await import('./cart-code'), items };
}

describe('the cart code', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps a code across a reload, trimmed, and forgets it when removed', async () => {
    const { module, items } = await freshCode(undefined);
    module.cartCode.apply('  eid10 ');
    expect(module.cartCode.get()).toEqual({ code: 'eid10', email: null });
    const reloaded = await freshCode(JSON.parse(items.get('cart:code:v1') ?? 'null'));
    expect(reloaded.module.cartCode.get().code).toBe('eid10');
    reloaded.module.cartCode.remove();
    expect(reloaded.items.has('cart:code:v1')).toBe(false);
  });

  it('reads a hand-edited value as no code, and cuts one too long', async () => {
    expect((await freshCode({ code: 42 })).module.cartCode.get()).toEqual({ code: null, email: null });
    expect((await freshCode('x')).module.cartCode.get()).toEqual({ code: null, email: null });
    expect((await freshCode({ code: 'A'.repeat(60) })).module.cartCode.get().code).toHaveLength(40);
  });

  it('sends the email only with a code, and only when it looks like an address', async () => {
    const { module } = await freshCode(undefined);
    expect(module.codeForRequest({ code: null, email: 'a@b.co' })).toEqual({});
    expect(module.codeForRequest({ code: 'EID10', email: null })).toEqual({ code: 'EID10' });
    expect(module.codeForRequest({ code: 'EID10', email: 'not-an-address' })).toEqual({ code: 'EID10' });
    expect(module.codeForRequest({ code: 'EID10', email: 'a@b.co' })).toEqual({
      code: 'EID10',
      email: 'a@b.co',
    });
  });
});
