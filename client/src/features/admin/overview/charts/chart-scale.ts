import type { SizeSellThrough } from '@shared/dashboard';
import { currencyExponent } from '@shared/money';

/**
 * The arithmetic of the Overview's hand-drawn charts (decision 0041 "Charts"), kept apart from the SVG so the
 * scaling and the labels can be tested without a browser.
 */

/** A value axis from zero: its top and the ticks to draw, all whole numbers (minor units, pieces). */
export type ValueScale = { top: number; ticks: number[] };

/**
 * A "nice" axis over [0, max]: a step of 1, 2, 2.5 or 5 times a power of ten, with at most `maxTicks` steps,
 * and a top the smallest multiple of the step at or above the largest value. Steps are whole (the values are
 * minor units or pieces), so 2.5 is used only from 10 up. An empty or all-zero series still gets an axis of
 * one step, so its bars sit on the baseline instead of dividing by zero.
 */
export function valueScale(max: number, maxTicks = 4): ValueScale {
  const ceiling = Math.max(0, Math.ceil(max));
  if (ceiling === 0) return { top: 1, ticks: [0, 1] };
  const rough = ceiling / maxTicks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step =
    [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => Number.isInteger(s) && s >= rough) ?? 10 * power;
  const whole = Math.max(1, Math.round(step));
  const top = Math.ceil(ceiling / whole) * whole;
  const ticks: number[] = [];
  for (let t = 0; t <= top; t += whole) ticks.push(t);
  return { top, ticks };
}

/** Where a value sits on a vertical axis `height` tall (0 at the bottom), in pixels from the top. */
export function yOf(value: number, scale: ValueScale, height: number): number {
  return height - (Math.max(0, value) / scale.top) * height;
}

/** One bar of a column chart: its left edge and width, in pixels. */
export type BarSlot = { x: number; width: number };

/**
 * `count` equal slots across `width`, each bar taking the slot less a gap (a quarter of the slot, at most
 * 8 px), and never narrower than 1 px so a day is always visible.
 */
export function barSlots(count: number, width: number): BarSlot[] {
  if (count <= 0) return [];
  const slot = width / count;
  const gap = Math.min(8, slot / 4);
  return Array.from({ length: count }, (_, i) => ({
    x: i * slot + gap / 2,
    width: Math.max(1, slot - gap),
  }));
}

/**
 * Which bars get a label under them: every k-th from the first, k the smallest that leaves each label
 * `labelWidth` px, and always the last bar (today, usually what the owner looks for) unless it would crowd
 * the one before it.
 */
export function labelledIndexes(count: number, width: number, labelWidth = 48): number[] {
  if (count <= 0) return [];
  const fit = Math.max(1, Math.floor(width / labelWidth));
  const every = Math.max(1, Math.ceil(count / fit));
  const picked: number[] = [];
  for (let i = 0; i < count; i += every) picked.push(i);
  const last = count - 1;
  const previous = picked[picked.length - 1] ?? 0;
  if (previous !== last) {
    if (last - previous < every) picked.pop();
    picked.push(last);
  }
  return picked;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A shop day (YYYY-MM-DD) as a short label, "29 Nov", read as written: no time zone can shift it. */
export function shortDay(day: string): string {
  const [, month, date] = day.split('-');
  return `${Number(date)} ${MONTHS[Number(month) - 1] ?? ''}`;
}

/** A share 0..1 as a whole percentage, "40 %"; null (nothing to measure) as a dash. */
export function percent(rate: number | null): string {
  return rate === null ? '—' : `${Math.round(rate * 100)} %`;
}

/**
 * "M: 40 % sold (8 of 20)": what each bar says in words, so its length is never the only telling. A size
 * whose stock is not counted (made to order) has no rate: its units sold alone.
 */
export function sizeLine(size: Pick<SizeSellThrough, 'size' | 'sold' | 'onHand' | 'rate'>): string {
  if (size.rate === null)
    return size.sold === 0
      ? `${size.size}: none sold, none in stock`
      : `${size.size}: ${size.sold} sold, stock not counted`;
  return `${size.size}: ${percent(size.rate)} sold (${size.sold} of ${size.sold + size.onHand})`;
}

/**
 * An axis value in few characters ("$1.5K", "PKR 2M"): the ticks are round numbers, so the short form is
 * exact enough, and it fits beside the chart at 320 px where "PKR 1,500,000" would not. The table and the
 * description give the exact amounts.
 */
export function axisMoney(amountMinor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(amountMinor / 10 ** currencyExponent(currency));
}
