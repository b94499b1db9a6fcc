import { describe, expect, it } from 'vitest';
import { isClientRoute } from './routes.js';

describe('isClientRoute', () => {
  it('matches the pages the client renders', () => {
    expect(isClientRoute('/')).toBe(true);
    expect(isClientRoute('/product/plink_abc')).toBe(true);
    expect(isClientRoute('/product/plink_abc/')).toBe(true);
    expect(isClientRoute('/accessibility')).toBe(true);
  });

  it('does not match anything else', () => {
    expect(isClientRoute('/product')).toBe(false);
    expect(isClientRoute('/product/a/b')).toBe(false);
    expect(isClientRoute('/nope')).toBe(false);
    expect(isClientRoute('/index.html')).toBe(false);
  });
});
