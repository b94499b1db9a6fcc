/** The Core Web Vitals and friends the storefront reports, with Google's good/poor thresholds. */
export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];
export type VitalRating = 'good' | 'needs-improvement' | 'poor';

/** A value at or below `good` is good; above `poor` is poor; between needs improvement. CLS has no unit. */
export const VITAL_THRESHOLDS: Record<VitalName, { good: number; poor: number; unit: 'ms' | '' }> = {
  LCP: { good: 2500, poor: 4000, unit: 'ms' },
  INP: { good: 200, poor: 500, unit: 'ms' },
  CLS: { good: 0.1, poor: 0.25, unit: '' },
  FCP: { good: 1800, poor: 3000, unit: 'ms' },
  TTFB: { good: 800, poor: 1800, unit: 'ms' },
};

export function rateVital(name: VitalName, value: number): VitalRating {
  const t = VITAL_THRESHOLDS[name];
  return value <= t.good ? 'good' : value <= t.poor ? 'needs-improvement' : 'poor';
}

export function formatVital(name: VitalName, value: number): string {
  return name === 'CLS' ? value.toFixed(3) : `${Math.round(value).toLocaleString('en-US')} ms`;
}
