import { describe, expect, it } from 'vitest';
import { safeOrderReturnTo } from './return-to-check';

describe('where the demo difference payment returns to', () => {
  it('goes back to the order page with its token and the paid notice', () => {
    expect(safeOrderReturnTo('/order/ord_1?token=abc&difference=paid')).toBe(
      '/order/ord_1?token=abc&difference=paid',
    );
  });

  it('refuses anything that is not a shopper order page on this site', () => {
    for (const raw of [
      null,
      '',
      'https://evil.example/order/1',
      '//evil.example/order/1',
      '/\\evil.example',
      '/order\\..\\admin',
      'javascript:alert(1)//order/',
      '/admin/dashboard',
      '/order/',
      '/order/../admin',
      '/order/%2e%2e/admin',
      '/order/1/confirm',
      '/order/1/../../admin',
      '/orders/1',
      '/order/1\n',
    ])
      expect(safeOrderReturnTo(raw), String(raw)).toBeNull();
  });
});
