import { VITALS_MAX_METRICS } from '@shared/telemetry-limits';
import type { Metric } from 'web-vitals';
import { paths } from './paths';

/**
 * Real-user performance: LCP, CLS, INP, FCP and TTFB measured with the web-vitals library and sent to
 * POST /api/vitals with navigator.sendBeacon when the page is hidden. Half of the page loads are measured
 * (SAMPLE_RATE). web-vitals is imported only after the page has loaded, so it never delays the first paint.
 *
 * Forcing every page load to be measured (end-to-end tests, checking a change by hand): set
 * `localStorage['store:vitals-sample'] = 'all'` in the browser; `'none'` turns measuring off.
 */
const SAMPLE_RATE = 0.5;
export const VITALS_SAMPLE_KEY = 'store:vitals-sample';
const ENDPOINT = paths.vitals();

type Sample = { name: Metric['name']; value: number; navigationType?: string };

function sampled(): boolean {
  let flag: string | null = null;
  try {
    flag = window.localStorage.getItem(VITALS_SAMPLE_KEY);
  } catch {
    // storage blocked: fall back to the random sample
  }
  if (flag === 'all') return true;
  if (flag === 'none') return false;
  return Math.random() < SAMPLE_RATE;
}

function whenLoaded(run: () => void): void {
  const later = () => setTimeout(run, 0);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

export function startVitals(): void {
  if (typeof window === 'undefined' || typeof navigator.sendBeacon !== 'function') return;
  // The page this load measured; only its path is sent and the server keeps just the route pattern.
  const path = window.location.pathname;
  if (path.startsWith('/admin') || !sampled()) return;

  let queue: Sample[] = [];
  const flush = () => {
    if (queue.length === 0) return;
    try {
      for (let i = 0; i < queue.length; i += VITALS_MAX_METRICS) {
        const metrics = queue.slice(i, i + VITALS_MAX_METRICS);
        navigator.sendBeacon(ENDPOINT, JSON.stringify({ path, metrics }));
      }
    } catch {
      // Measuring must never break the page.
    }
    queue = [];
  };
  window.addEventListener('pagehide', flush);

  whenLoaded(() => {
    import('web-vitals')
      .then(({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
        const add = (m: Metric) => {
          if (!Number.isFinite(m.value) || m.value < 0) return;
          queue.push({
            name: m.name,
            value: Math.round(m.value * 1000) / 1000,
            navigationType: m.navigationType,
          });
        };
        onCLS(add);
        onFCP(add);
        onINP(add);
        onLCP(add);
        onTTFB(add);
        // web-vitals reports LCP, CLS and INP from its own visibilitychange listeners; this one, added after
        // them, runs after them on the same event and sends the batch.
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'hidden') flush();
        });
      })
      .catch(() => undefined);
  });
}
