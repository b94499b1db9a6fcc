import type { CurrencyFigures, DashboardPeriodInput, PeriodRange } from '@shared/dashboard';
import { shortDay } from './charts/chart-scale';

/** A figure against the period before, in words (never colour alone): "up 12 %", "down 5 %", … */
export type Change = { direction: 'up' | 'down' | 'same' | 'new'; text: string };

/** How a figure moved from the period before; a start from nothing has no percentage to give. */
export function change(current: number, before: number): Change {
  if (current === before) return { direction: 'same', text: 'no change' };
  if (before === 0) return { direction: 'new', text: 'none the period before' };
  const pct = Math.round((Math.abs(current - before) / before) * 100);
  const direction = current > before ? 'up' : 'down';
  // A real change too small to show as a whole percentage still says which way it went.
  return { direction, text: `${direction} ${pct === 0 ? 'under 1' : pct} %` };
}

/** The period before's figures in the same currency; all zero when it had none in that currency. */
export function figuresBefore(before: CurrencyFigures[], currency: string): CurrencyFigures {
  return (
    before.find((f) => f.currency === currency) ?? {
      currency,
      revenueMinor: 0,
      orders: 0,
      averageOrderMinor: 0,
      units: 0,
      refundedMinor: 0,
      discountsMinor: 0,
      revenueByDay: [],
    }
  );
}

/**
 * The currencies the period shows: this period's (largest revenue first, as the server orders them), then
 * any only the period before had, so a currency that stopped selling still shows its fall to zero.
 */
export function currenciesShown(current: CurrencyFigures[], before: CurrencyFigures[]): string[] {
  const listed = current.map((f) => f.currency);
  return [...listed, ...before.map((f) => f.currency).filter((c) => !listed.includes(c))];
}

/** "1 Nov – 29 Nov 2026", or one day alone. */
export function rangeLabel(range: Pick<PeriodRange, 'from' | 'to'>): string {
  const year = range.to.slice(0, 4);
  return range.from === range.to
    ? `${shortDay(range.from)} ${year}`
    : `${shortDay(range.from)}${range.from.slice(0, 4) === year ? '' : ` ${range.from.slice(0, 4)}`} – ${shortDay(range.to)} ${year}`;
}

/** The query's period: presets alone, custom with its two days. */
export function periodQuery(
  preset: DashboardPeriodInput['preset'],
  from: string,
  to: string,
): DashboardPeriodInput {
  return preset === 'custom' ? { preset, from, to } : { preset };
}
