import { describe, expect, it } from 'vitest';
import { change, currenciesShown, figuresBefore, periodQuery, rangeLabel } from './figures';

const figures = (currency: string, revenueMinor: number) => ({
  currency,
  revenueMinor,
  orders: 1,
  averageOrderMinor: revenueMinor,
  units: 1,
  refundedMinor: 0,
  discountsMinor: 0,
  revenueByDay: [],
});

describe('change', () => {
  it('says which way a figure went, in words', () => {
    expect(change(112, 100)).toEqual({ direction: 'up', text: 'up 12 %' });
    expect(change(95, 100)).toEqual({ direction: 'down', text: 'down 5 %' });
    expect(change(0, 100)).toEqual({ direction: 'down', text: 'down 100 %' });
    expect(change(7, 7)).toEqual({ direction: 'same', text: 'no change' });
    expect(change(0, 0)).toEqual({ direction: 'same', text: 'no change' });
  });

  it('gives no percentage from nothing, and never rounds a change to zero', () => {
    expect(change(5, 0)).toEqual({ direction: 'new', text: 'none the period before' });
    expect(change(1001, 1000)).toEqual({ direction: 'up', text: 'up under 1 %' });
  });
});

describe('currencies', () => {
  it('compares a currency with the same currency only', () => {
    const before = [figures('usd', 500), figures('pkr', 90_000)];
    expect(figuresBefore(before, 'pkr').revenueMinor).toBe(90_000);
    expect(figuresBefore(before, 'eur')).toMatchObject({ currency: 'eur', revenueMinor: 0, orders: 0 });
  });

  it("shows this period's currencies first, then those only the period before had", () => {
    expect(
      currenciesShown([figures('pkr', 9), figures('usd', 1)], [figures('eur', 3), figures('usd', 2)]),
    ).toEqual(['pkr', 'usd', 'eur']);
  });
});

describe('periods', () => {
  it('labels a range of days', () => {
    expect(rangeLabel({ from: '2026-11-23', to: '2026-11-29' })).toBe('23 Nov – 29 Nov 2026');
    expect(rangeLabel({ from: '2026-11-29', to: '2026-11-29' })).toBe('29 Nov 2026');
    expect(rangeLabel({ from: '2025-12-01', to: '2026-01-31' })).toBe('1 Dec 2025 – 31 Jan 2026');
  });

  it('sends the days only with a custom period', () => {
    expect(periodQuery('7d', '2026-11-01', '2026-11-02')).toEqual({ preset: '7d' });
    expect(periodQuery('custom', '2026-11-01', '2026-11-02')).toEqual({
      preset: 'custom',
      from: '2026-11-01',
      to: '2026-11-02',
    });
  });
});
