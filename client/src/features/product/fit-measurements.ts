import type { LineFit } from '@shared/checkout-input';
import { convert, FIT_KEYS, type FitKey, UNITS, type Unit } from '@shared/fit-finder';

/**
 * The shopper's measurements, remembered on this device only (decision 0021): one localStorage key, values in
 * centimetres whatever unit they were typed in, and the unit they chose, so every product's fit finder starts
 * from them. A line added to the cart after an answer carries that answer's measurements (fitForLine), which go
 * with the order (decision 0040); nothing else here reaches the server.
 */
export const FIT_STORAGE_KEY = 'fit-finder:measurements:v1';

export type StoredMeasurements = { unit: Unit; cm: Partial<Record<FitKey, number>> };

export function readMeasurements(): StoredMeasurements | null {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(FIT_STORAGE_KEY) ?? 'null');
    if (!raw || typeof raw !== 'object') return null;
    const { unit, cm } = raw as { unit?: unknown; cm?: unknown };
    if (!UNITS.includes(unit as Unit) || !cm || typeof cm !== 'object') return null;
    const values: Partial<Record<FitKey, number>> = {};
    for (const key of FIT_KEYS) {
      const v = (cm as Record<string, unknown>)[key];
      if (typeof v === 'number' && Number.isFinite(v) && v > 0) values[key] = v;
    }
    return { unit: unit as Unit, cm: values };
  } catch {
    return null;
  }
}

/**
 * Remembers the measurements of `keys` (the ones this product's chart has) as typed in `unit`: a value sets
 * its measurement, a missing one forgets it; measurements of other keys stay as they were.
 */
export function saveMeasurements(
  unit: Unit,
  keys: readonly FitKey[],
  values: Partial<Record<FitKey, number>>,
): void {
  const cm = { ...readMeasurements()?.cm };
  for (const key of keys) {
    const v = values[key];
    if (v === undefined) delete cm[key];
    else cm[key] = convert(v, unit, 'cm');
  }
  try {
    localStorage.setItem(FIT_STORAGE_KEY, JSON.stringify({ unit, cm }));
  } catch {
    // Private mode or a full quota: the finder still works on this page.
  }
}

export function clearMeasurements(): void {
  try {
    localStorage.removeItem(FIT_STORAGE_KEY);
  } catch {
    // Nothing stored can be removed.
  }
}

/** A remembered value as a field shows it in `unit`: at most two decimals, no float noise (96.52 cm → "38"). */
export function fieldText(cm: number | undefined, unit: Unit): string {
  if (cm === undefined) return '';
  return String(Math.round(convert(cm, 'cm', unit) * 100) / 100);
}

/**
 * The measurements a cart line carries (decision 0040): those this product's chart compares (`keys`), in
 * centimetres unrounded (so the server reads the chart as the shopper's answer did), or null when none was given.
 */
export function fitForLine(
  unit: Unit,
  keys: readonly FitKey[],
  values: Partial<Record<FitKey, number>>,
): LineFit | null {
  const cm: LineFit['cm'] = {};
  for (const key of keys) {
    const v = values[key];
    if (v !== undefined) cm[key] = convert(v, unit, 'cm');
  }
  return Object.keys(cm).length > 0 ? { cm } : null;
}
