import type { LineFit } from '@shared/checkout-input';
import { FIT_KEYS, type FitKey } from '@shared/fit-keys';

/** The bounds checkout's schema (lineFitInput) puts on a measurement; line-fit.test.ts holds them equal. */
const CM_MIN = 1;
const CM_MAX = 400;

/**
 * A kept cart line's measurements as checkout would take them, else undefined. The cart is in the home
 * page's script, which carries no Zod (its size budget), so this restates lineFitInput's rule: only the fit
 * finder's keys, each 1 to 400 cm, at least one.
 */
export function keptLineFit(value: unknown): LineFit | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (Object.keys(value).some((key) => key !== 'cm')) return undefined;
  const cm: unknown = (value as { cm?: unknown }).cm;
  if (!cm || typeof cm !== 'object' || Array.isArray(cm)) return undefined;
  const kept: Partial<Record<FitKey, number>> = {};
  for (const [key, v] of Object.entries(cm)) {
    if (!(FIT_KEYS as readonly string[]).includes(key)) return undefined;
    if (v === undefined) continue;
    if (typeof v !== 'number' || !(v >= CM_MIN && v <= CM_MAX)) return undefined;
    kept[key as FitKey] = v;
  }
  return Object.keys(kept).length > 0 ? { cm: kept } : undefined;
}
