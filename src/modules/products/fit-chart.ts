import { colourOptionsOf, sizeDetailOf } from '../../db/json-columns.js';
import { findColour } from '../../shared/colours.js';
import { FIT_KEYS, type FitChart, type FitKey, readFitChart } from '../../shared/fit-finder.js';
import { sortSizes } from '../../shared/sizes.js';

export type FitCm = Partial<Record<FitKey, number>>;

/**
 * The chart a line's fit is read on, as its product page's fit finder reads it (decision 0021): the colour's
 * own size chart when it has one, else the product's, over the product's sizes in size order.
 */
export function fitChartOf(
  product: { sizes: string[]; size_detail: string; colour_options: string },
  colour: string | null,
): { chart: FitChart; sizes: string[] } {
  const sizes = sortSizes(product.sizes);
  const own = colour === null ? undefined : findColour(colourOptionsOf(product.colour_options), colour);
  const detail = sizeDetailOf(own?.sizeDetail ?? product.size_detail);
  return { chart: readFitChart(sizes, detail), sizes };
}

/**
 * The measurements worth keeping with a line (decision 0040): only those the chart compares, so nothing the
 * shopper typed for another product's chart is stored with this one. Null when none is left.
 */
export function keptFit(chart: FitChart, cm: FitCm | undefined): FitCm | null {
  if (!cm) return null;
  const kept: FitCm = {};
  for (const m of chart.measurements) {
    const v = cm[m.key];
    if (v !== undefined) kept[m.key] = v;
  }
  return Object.keys(kept).length > 0 ? kept : null;
}

/** A stored fit_cm column read back; null for none, or for anything that is not such a record. */
export function parseFitCm(text: string | null): FitCm | null {
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const out: FitCm = {};
  for (const key of FIT_KEYS) {
    const v = (raw as Record<string, unknown>)[key];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[key] = v;
  }
  return Object.keys(out).length > 0 ? out : null;
}
