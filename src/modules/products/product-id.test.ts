import { describe, expect, it } from 'vitest';
import { defaultSku } from '../../shared/product-input.js';
import { newProductId } from './product-id.js';

describe('the SKU a new product gets by default', () => {
  it('is "SKU-" and 8 characters of the id, taken after the "plink_" every generated id shares', () => {
    expect(defaultSku('plink_ab12cd34ef56gh78')).toBe('SKU-ab12cd34');
    expect(defaultSku('legacy_1234')).toBe('SKU-legacy_1');
  });

  it('differs between generated ids, so a shop adding products never trips over the unique SKU rule', () => {
    const skus = new Set(Array.from({ length: 2_000 }, () => defaultSku(newProductId())));
    expect(skus.size).toBe(2_000);
  });
});
