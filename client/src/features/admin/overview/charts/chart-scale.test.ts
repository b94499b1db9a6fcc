import { describe, expect, it } from 'vitest';
import {
  axisMoney,
  barSlots,
  labelledIndexes,
  percent,
  shortDay,
  sizeLine,
  valueScale,
  yOf,
} from './chart-scale';

describe('valueScale', () => {
  it('rounds the top up to a nice step and lists every tick from zero', () => {
    expect(valueScale(123_456)).toEqual({ top: 150_000, ticks: [0, 50_000, 100_000, 150_000] });
    expect(valueScale(10)).toEqual({ top: 10, ticks: [0, 5, 10] });
    expect(valueScale(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(valueScale(1)).toEqual({ top: 1, ticks: [0, 1] });
  });

  it('uses a step of 2.5 only where it is whole', () => {
    expect(valueScale(90)).toEqual({ top: 100, ticks: [0, 25, 50, 75, 100] });
    // 3 / 4 would want a step of 0.75: the smallest whole step is 1.
    expect(valueScale(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
  });

  it('keeps the largest value on or under the top, and never more steps than asked', () => {
    for (const max of [1, 2, 9, 11, 99, 101, 4_999, 5_001, 1_234_567, 98_765_432]) {
      const { top, ticks } = valueScale(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(ticks.length - 1).toBeLessThanOrEqual(4);
      expect(ticks.every(Number.isInteger)).toBe(true);
      expect(ticks[ticks.length - 1]).toBe(top);
    }
  });

  it('gives an empty or all-zero series an axis of one step', () => {
    expect(valueScale(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(valueScale(-5)).toEqual({ top: 1, ticks: [0, 1] });
  });
});

describe('yOf', () => {
  it('puts zero on the baseline and the top at the top', () => {
    const scale = valueScale(100);
    expect(yOf(0, scale, 200)).toBe(200);
    expect(yOf(100, scale, 200)).toBe(0);
    expect(yOf(50, scale, 200)).toBe(100);
    // A negative value (never sent, but) stays on the baseline instead of hanging below it.
    expect(yOf(-10, scale, 200)).toBe(200);
  });
});

describe('barSlots', () => {
  it('splits the width into equal slots with a gap', () => {
    const slots = barSlots(4, 400);
    expect(slots).toHaveLength(4);
    expect(slots[0]).toEqual({ x: 4, width: 92 });
    expect(slots[3]?.x).toBe(304);
  });

  it('keeps a bar at least a pixel wide however many days', () => {
    expect(barSlots(366, 300).every((s) => s.width >= 1)).toBe(true);
    expect(barSlots(0, 300)).toEqual([]);
  });
});

describe('labelledIndexes', () => {
  it('labels every day when they fit', () => {
    expect(labelledIndexes(7, 600)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('thins the labels at 320 px and keeps the last day', () => {
    const picked = labelledIndexes(30, 320);
    expect(picked[0]).toBe(0);
    expect(picked[picked.length - 1]).toBe(29);
    expect(picked.length).toBeLessThanOrEqual(Math.floor(320 / 48));
    // No two labels closer than the step: none overlaps its neighbour.
    for (let i = 1; i < picked.length; i++)
      expect((picked[i] ?? 0) - (picked[i - 1] ?? 0)).toBeGreaterThanOrEqual(5);
  });

  it('handles a single day and none', () => {
    expect(labelledIndexes(1, 320)).toEqual([0]);
    expect(labelledIndexes(0, 320)).toEqual([]);
  });
});

describe('labels', () => {
  it('reads a shop day as written', () => {
    expect(shortDay('2026-11-29')).toBe('29 Nov');
    expect(shortDay('2027-01-01')).toBe('1 Jan');
  });

  it('writes a rate as a whole percentage', () => {
    expect(percent(0.4)).toBe('40 %');
    expect(percent(2 / 3)).toBe('67 %');
    expect(percent(null)).toBe('—');
  });
});

describe('sizeLine', () => {
  it('says in words what the bar shows', () => {
    expect(sizeLine({ size: 'M', sold: 8, onHand: 12, rate: 0.4 })).toBe('M: 40 % sold (8 of 20)');
    expect(sizeLine({ size: 'XL', sold: 0, onHand: 0, rate: null })).toBe('XL: none sold, none in stock');
    expect(sizeLine({ size: 'S', sold: 0, onHand: 5, rate: 0 })).toBe('S: 0 % sold (0 of 5)');
    // Made to order: no stock to measure against, the units alone.
    expect(sizeLine({ size: 'L', sold: 4, onHand: 0, rate: null })).toBe('L: 4 sold, stock not counted');
  });
});

describe('axisMoney', () => {
  it('writes round tick values short, in the currency', () => {
    expect(axisMoney(0, 'usd')).toBe('$0');
    expect(axisMoney(2_500, 'usd')).toBe('$25');
    expect(axisMoney(150_000_00, 'usd')).toBe('$150K');
    expect(axisMoney(150_000_000, 'pkr')).toBe('PKR\u00a01.5M'); // Intl puts a no-break space after a code
    // A currency without minor units is not divided by 100.
    expect(axisMoney(25_000, 'jpy')).toBe('¥25K');
  });
});
