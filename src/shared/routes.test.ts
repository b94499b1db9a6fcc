import { describe, expect, it } from 'vitest';
import { isClientRoute } from './routes.js';

describe('isClientRoute', () => {
  it('matches the pages the client renders', () => {
    expect(isClientRoute('/')).toBe(true);
    expect(isClientRoute('/product/plink_abc')).toBe(true);
    expect(isClientRoute('/product/plink_abc/')).toBe(true);
    expect(isClientRoute('/accessibility')).toBe(true);
    // The cash-on-delivery confirmation link (decision 0038) is the app's, beside the order page's own route.
    expect(isClientRoute('/order/ord_1/confirm')).toBe(true);
    // An exchange's packing slip (decision 0039), beside the order's.
    expect(isClientRoute('/admin/returns/ret_1/packing-slip')).toBe(true);
  });

  it('does not match anything else', () => {
    expect(isClientRoute('/product')).toBe(false);
    expect(isClientRoute('/product/a/b')).toBe(false);
    expect(isClientRoute('/order/a/b/confirm')).toBe(false);
    expect(isClientRoute('/admin/returns/ret_1')).toBe(false);
    expect(isClientRoute('/nope')).toBe(false);
    expect(isClientRoute('/index.html')).toBe(false);
  });
});
