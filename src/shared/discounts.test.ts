import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bestSale,
  type Discount,
  type PricedItem,
  percentOf,
  priceLines,
  refundableForUnits,
  shareByWeight,
} from './discounts.js';

const NOW = new Date('2026-04-10T12:00:00Z');

const discount = (over: Partial<Discount>): Discount => ({
  id: 'd1',
  kind: 'sale',
  name: 'Eid',
  code: null,
  value: { type: 'percent', percent: 20 },
  target: 'items',
  scope: {},
  startsAt: '2026-04-01T00:00:00Z',
  endsAt: null,
  endedAt: null,
  minOrderMinor: null,
  maxUses: null,
  maxUsesPerEmail: null,
  uses: 0,
  createdAt: '2026-03-01T00:00:00Z',
  ...over,
});

const item = (over: Partial<PricedItem> = {}): PricedItem => ({
  productId: 'lawn',
  tags: ['women', 'lawn'],
  colourKey: null,
  unitPriceMinor: 4999,
  currency: 'pkr',
  quantity: 1,
  ...over,
});

describe('sales', () => {
  it('takes the best running sale for an item, never two, and none before its start or after its end', () => {
    const twenty = discount({ id: 'a', scope: { tags: ['Women'] } });
    const fixed = discount({ id: 'b', value: { type: 'fixed', amountMinor: 500, currency: 'pkr' } });
    const later = discount({
      id: 'c',
      value: { type: 'percent', percent: 50 },
      startsAt: '2026-04-11T00:00:00Z',
    });
    const ended = discount({
      id: 'd',
      value: { type: 'percent', percent: 60 },
      endedAt: '2026-04-09T00:00:00Z',
    });
    // 20 % of 4999 is 999.8: 1000 off, half up, more than the fixed 500.
    expect(bestSale([fixed, twenty, later, ended], item(), NOW)).toMatchObject({
      id: 'a',
      unitDiscountMinor: 1000,
      percentOff: 20,
    });
    expect(bestSale([fixed, later], item({ unitPriceMinor: 2000 }), NOW)).toMatchObject({ id: 'b' });
    // A fixed sale of another currency, or of other colours, does not apply.
    expect(bestSale([fixed], item({ currency: 'usd' }), NOW)).toBeNull();
    const teal = discount({ scope: { colours: ['teal'] } });
    expect(bestSale([teal], item({ colourKey: 'maroon' }), NOW)).toBeNull();
    expect(bestSale([teal], item({ colourKey: 'teal' }), NOW)).not.toBeNull();
    // Ends at its end, exactly.
    const ending = discount({ endsAt: '2026-04-10T12:00:00Z' });
    expect(bestSale([ending], item(), NOW)).toBeNull();
  });
});

describe('codes', () => {
  const eid10 = discount({
    id: 'code',
    kind: 'code',
    code: 'EID10',
    target: 'order',
    value: { type: 'percent', percent: 10 },
    minOrderMinor: 10_000,
    maxUses: 50,
  });

  it('applies on top of sale prices, per line, half up, and says why it does not', () => {
    const sale = discount({ id: 's', scope: { tags: ['lawn'] } });
    const lines = [item({ quantity: 3 }), item({ productId: 'silk', tags: ['silk'], unitPriceMinor: 3333 })];
    const priced = priceLines(lines, { sales: [sale], code: eid10, now: NOW });
    // Lawn: 4999 - 1000 = 3999 × 3 = 11997; silk 3333 (no sale). 10 %: 1200 (1199.7) and 333 (333.3).
    expect(
      priced.lines.map((l) => [l.unitPriceMinor, l.subtotalMinor, l.codeDiscountMinor, l.totalMinor]),
    ).toEqual([
      [3999, 11997, 1200, 10797],
      [3333, 3333, 333, 3000],
    ]);
    expect(priced).toMatchObject({
      subtotalMinor: 15330,
      salesMinor: 3000,
      codeDiscountMinor: 1533,
      totalMinor: 13797,
    });
    expect(priceLines([item()], { sales: [], code: eid10, now: NOW }).code).toEqual({
      refused: 'minimum_not_reached',
    });
    expect(priceLines([item()], { sales: [], code: { ...eid10, uses: 50 }, now: NOW }).code).toEqual({
      refused: 'used_up',
    });
    // A minimum of 100 dollars says nothing of a cart in rupees: not reached, however big the cart.
    const big = [item({ quantity: 10 })];
    expect(priceLines(big, { sales: [], code: eid10, now: NOW }).code).not.toHaveProperty('refused');
    const inDollars = { ...eid10, minOrderCurrency: 'usd' };
    expect(priceLines(big, { sales: [], code: inDollars, now: NOW }).code).toEqual({
      refused: 'minimum_not_reached',
    });
    expect(
      priceLines(big, { sales: [], code: { ...inDollars, minOrderCurrency: 'pkr' }, now: NOW }).code,
    ).not.toHaveProperty('refused');
    expect(priceLines([item()], { sales: [], code: 'not_found', now: NOW }).code).toEqual({
      refused: 'not_found',
    });
    const soon = { ...eid10, minOrderMinor: null, startsAt: '2026-05-01T00:00:00Z' };
    expect(priceLines([item()], { sales: [], code: soon, now: NOW }).code).toEqual({
      refused: 'not_yet_valid',
    });
  });

  it('shares a fixed amount over the covered lines exactly', () => {
    const off = discount({
      kind: 'code',
      code: 'SILK5',
      value: { type: 'fixed', amountMinor: 1000, currency: 'pkr' },
      scope: { tags: ['silk'] },
    });
    const priced = priceLines(
      [
        item({ productId: 'a', tags: ['silk'], unitPriceMinor: 1000 }),
        item({ productId: 'b', tags: ['silk'], unitPriceMinor: 2000 }),
        item({ productId: 'c', tags: ['lawn'], unitPriceMinor: 5000 }),
      ],
      { sales: [], code: off, now: NOW },
    );
    expect(priced.lines.map((l) => l.codeDiscountMinor)).toEqual([333, 667, 0]);
    expect(priced.codeDiscountMinor).toBe(1000);
  });

  it('always adds up: lines to the total, shares to the discount, never below zero (any cart, any code)', () => {
    const arbItem = fc.record({
      productId: fc.constantFrom('a', 'b', 'c'),
      tags: fc.subarray(['lawn', 'silk', 'women']),
      colourKey: fc.constantFrom(null, 'teal', 'maroon'),
      unitPriceMinor: fc.integer({ min: 0, max: 10_000_000 }),
      currency: fc.constant('pkr'),
      quantity: fc.integer({ min: 1, max: 10 }),
    });
    const arbValue = fc.oneof(
      fc.integer({ min: 1, max: 100 }).map((percent) => ({ type: 'percent' as const, percent })),
      fc
        .integer({ min: 1, max: 100_000_000 })
        .map((amountMinor) => ({ type: 'fixed' as const, amountMinor, currency: 'pkr' })),
    );
    fc.assert(
      fc.property(
        fc.array(arbItem, { minLength: 1, maxLength: 8 }),
        arbValue,
        fc.integer({ min: 1, max: 90 }),
        fc.constantFrom('order' as const, 'items' as const),
        (items, value, salePercent, target) => {
          const sale = discount({
            value: { type: 'percent', percent: salePercent },
            scope: { tags: ['women'] },
          });
          const code = discount({
            id: 'k',
            kind: 'code',
            code: 'X',
            value,
            target,
            scope: { tags: ['silk'] },
          });
          const priced = priceLines(items, { sales: [sale], code, now: NOW });
          const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
          expect(sum(priced.lines.map((l) => l.totalMinor))).toBe(priced.totalMinor);
          expect(sum(priced.lines.map((l) => l.codeDiscountMinor))).toBe(priced.codeDiscountMinor);
          expect(priced.subtotalMinor - priced.codeDiscountMinor).toBe(priced.totalMinor);
          for (const [i, l] of priced.lines.entries()) {
            expect(l.totalMinor).toBeGreaterThanOrEqual(0);
            expect(l.unitPriceMinor).toBeGreaterThanOrEqual(0);
            expect(l.subtotalMinor).toBe(l.unitPriceMinor * (items[i]?.quantity ?? 0));
            expect(Number.isInteger(l.totalMinor)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('integer arithmetic', () => {
  it('rounds half up and shares by largest remainder, adding up exactly', () => {
    expect(percentOf(4999, 20)).toBe(1000);
    expect(percentOf(25, 10)).toBe(3);
    expect(percentOf(24, 10)).toBe(2);
    expect(shareByWeight(100, [1, 1, 1])).toEqual([34, 33, 33]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        (total, weights) => {
          const shares = shareByWeight(total, weights);
          const sum = weights.reduce((s, w) => s + w, 0);
          expect(shares.reduce((s, x) => s + x, 0)).toBe(sum === 0 ? 0 : total);
          expect(shares.every((x) => x >= 0 && Number.isInteger(x))).toBe(true);
        },
      ),
    );
  });

  it('never refunds more than a line was charged, unit by unit', () => {
    const line = { quantity: 3, lineTotalMinor: 10_797, refundedQuantity: 0 };
    expect(refundableForUnits(line, 1)).toBe(3599);
    expect(refundableForUnits(line, 3)).toBe(10_797);
    expect(refundableForUnits({ ...line, refundedQuantity: 1 }, 2)).toBe(7198);
  });
});
