/**
 * The HTTP side of the bench: what a scenario is, how one is loaded (autocannon, as a browser asks), and the
 * store URLs every run loads.
 */
import autocannon from 'autocannon';

import type { NodeProcess } from '../launcher/node-process.js';
import { type LoopReading, scrapeLoopDelay } from './loop-delay.js';

export type Measured = {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The store's event-loop delay during the load (absent for the baseline). */
  loop?: LoopReading;
  /**
   * The server's CPU time per answered request (ms, every thread), where the load was told its process:
   * what the server spent, whatever share of the cores the load generator took.
   */
  cpuMsPerRequest?: number;
};

export type Scenario = { name: string; path: string };

export type LoadOptions = {
  /** A new path for every request (a stream no cache has seen); otherwise the URL's own path each time. */
  nextPath?: () => string;
  /** The store whose /metrics gives the event-loop delay during the load. */
  store?: string;
  /** The server's process, whose CPU time per request is measured. */
  server?: Pick<NodeProcess, 'cpuMs'>;
};

export async function load(
  url: string,
  connections: number,
  seconds: number,
  opts: LoadOptions = {},
): Promise<Measured> {
  if (opts.store) await scrapeLoopDelay(opts.store);
  const next = opts.nextPath;
  const cpuBefore = opts.server?.cpuMs() ?? null;
  // As a browser asks: it always accepts compressed answers (the baseline ignores the header).
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
    ...(next ? { requests: [{ setupRequest: (req: { path?: string }) => ({ ...req, path: next() }) }] } : {}),
  });
  const cpuAfter = opts.server?.cpuMs() ?? null;
  const answered = r.requests.total;
  return {
    ...(cpuBefore !== null && cpuAfter !== null && answered > 0
      ? { cpuMsPerRequest: Number(((cpuAfter - cpuBefore) / answered).toFixed(3)) }
      : {}),
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    ...(opts.store ? { loop: await scrapeLoopDelay(opts.store) } : {}),
  };
}

const trpcGet = (pathName: string, input: unknown) =>
  `/api/trpc/${pathName}?input=${encodeURIComponent(JSON.stringify(input))}`;
const trpcBatch = (paths: string[], inputs: unknown[]) =>
  `/api/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(inputs.map((v, i) => [i, v]))))}`;

/**
 * The store's scenarios, as paths so that the same ones can be sent to any store or balancer. After the
 * warm-up every one is answered from the response caches (decision 0007): these are the cached scenarios.
 */
export function storeScenarios(productId: string): Scenario[] {
  const filter = { sizes: ['M'], tags: ['women'], manufacturers: [], colors: [] };
  return [
    { name: 'catalogue first page', path: trpcGet('catalogue.search', { limit: 24 }) },
    {
      name: 'filtered page + facets',
      path: trpcBatch(['catalogue.search', 'catalogue.facets'], [{ ...filter, limit: 24 }, filter]),
    },
    { name: 'text search', path: trpcGet('catalogue.search', { q: 'silk kurta', limit: 24 }) },
    { name: 'product detail', path: trpcGet('catalogue.byId', { id: productId }) },
    { name: 'home page HTML', path: '/' },
    { name: 'product page HTML', path: `/product/${productId}` },
  ];
}
