/**
 * Simulated shoppers: each one loops browsing the way the storefront client does (same tRPC batch URLs,
 * same pages), and a fraction of loops check out in demo payment mode with the client's calls: quote,
 * create the order, open /testpayment, confirm the demo payment, open the result page and its order.
 */
import { distinctListingPaths } from '../bench/cache-miss.js';
import { mulberry32 } from '../bench/generate-catalogue.js';
import {
  keepAliveAgent,
  NetError,
  type Reply,
  type Send,
  send,
  trpcData,
  trpcGetPath,
  trpcMutation,
} from './http.js';

export const KINDS = [
  'catalogue page',
  'filters + facets',
  'text search',
  'distinct listing',
  'product detail',
  'product page HTML',
  'checkout quote',
  'create order',
  'payment page HTML',
  'confirm demo payment',
  'result page HTML',
  'result order',
] as const;
export type Kind = (typeof KINDS)[number];

export type ErrorSample = { kind: Kind; what: string; atMs: number };

export type LoadStats = {
  latencies: Map<Kind, number[]>;
  requests: number;
  errors: { server5xx: number; network: number; unexpected4xx: number; other: number };
  samples: ErrorSample[];
  /** Failures after the run was told to stop (the server was killed on purpose): expected, not counted. */
  afterStop: number;
  checkoutsStarted: number;
  /** Demo sessions whose payment the server confirmed: each must be a paid order afterwards. */
  paidSessions: string[];
  /** Order numbers created, whether paid or not. */
  ordersCreated: number;
  /** Answers other than the expected one, by HTTP status. */
  statuses: Record<number, number>;
  /** 503 and 429 answers without Retry-After (every one should say when to come back). */
  withoutRetryAfter: number;
  elapsedMs: number;
};

export type Product = { id: string; size: string | null; colour: string | null };

export type LoadOptions = {
  port: number;
  shoppers: number;
  durationMs: number;
  /** Fraction of loops that end in a checkout (0..1). */
  checkoutRate: number;
  /** False skips the browsing requests: every loop is a checkout (the order-creation fault wants that). */
  browse?: boolean;
  products: readonly Product[];
  seed?: number;
  /** Aborted by whoever kills the server: loops end, and failures from then on are expected. */
  signal?: AbortSignal;
  /** Ends the run early once it returns true (checked between requests). */
  until?: (stats: LoadStats) => boolean;
  /** Called once a second with the elapsed time (RSS sampling lives with the caller). */
  onTick?: (elapsedMs: number) => void;
};

/** What a soak shopper types on the demo payment page. */
const SOAK_SHOPPER = {
  email: 'soak@example.com',
  name: 'Soak Shopper',
  address: { line1: '1 Test Street', city: 'Springfield', postalCode: '12345', country: 'US' },
};
const WORDS = ['silk', 'kurta', 'emerald jaal', 'wedding lehenga', 'zarnigar', 'chik', 'blush pink anarkali'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const TAGS = ['lawn', 'formal', 'casual', 'eid', 'wedding', 'embroidered', 'women', 'men', 'festive'];

export function emptyStats(): LoadStats {
  return {
    latencies: new Map(KINDS.map((k) => [k, []])),
    requests: 0,
    errors: { server5xx: 0, network: 0, unexpected4xx: 0, other: 0 },
    samples: [],
    afterStop: 0,
    checkoutsStarted: 0,
    paidSessions: [],
    ordersCreated: 0,
    statuses: {},
    withoutRetryAfter: 0,
    elapsedMs: 0,
  };
}

export async function runShoppers(opts: LoadOptions): Promise<LoadStats> {
  const stats = emptyStats();
  const agent = keepAliveAgent();
  const started = performance.now();
  const deadline = started + opts.durationMs;
  const stopped = () =>
    opts.signal?.aborted === true || performance.now() >= deadline || opts.until?.(stats) === true;
  const ticker = setInterval(() => opts.onTick?.(performance.now() - started), 1000);
  // One stream for every shopper of this run: no two of its listings alike (scripts/bench/cache-miss.ts).
  const distinctListing = distinctListingPaths(opts.seed ?? 1);

  const record = (kind: Kind, what: string, bucket: keyof LoadStats['errors']) => {
    if (opts.signal?.aborted) {
      stats.afterStop += 1;
      return;
    }
    stats.errors[bucket] += 1;
    if (stats.samples.length < 30) stats.samples.push({ kind, what, atMs: performance.now() - started });
  };

  /** One request; its latency when it answered `expected`, otherwise an error recorded and null. */
  const call = async (
    kind: Kind,
    req: Omit<Send, 'port' | 'agent'>,
    expected = 200,
  ): Promise<Reply | null> => {
    stats.requests += 1;
    try {
      const reply = await send({ ...req, port: opts.port, agent, timeoutMs: 30_000 });
      if (reply.status === expected) {
        stats.latencies.get(kind)?.push(reply.ms);
        return reply;
      }
      const status = answeredStatus(reply);
      stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
      if ((status === 503 || status === 429) && reply.headers['retry-after'] === undefined)
        stats.withoutRetryAfter += 1;
      const what = `${req.method ?? 'GET'} ${req.path.split('?')[0]} → ${reply.status} ${reply.body.slice(0, 160)}`;
      record(kind, what, status >= 500 ? 'server5xx' : status >= 400 ? 'unexpected4xx' : 'other');
      return null;
    } catch (error) {
      const code = error instanceof NetError ? error.code : 'ERROR';
      record(kind, `${req.path.split('?')[0]}: ${code} ${(error as Error).message}`, 'network');
      return null;
    }
  };

  const data = <T>(kind: Kind, reply: Reply | null): T | null => {
    if (!reply) return null;
    try {
      return trpcData<T>(reply);
    } catch (error) {
      record(kind, (error as Error).message, 'other');
      return null;
    }
  };

  async function browse(rand: () => number): Promise<void> {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
    await call('catalogue page', { path: trpcGetPath(['catalogue.search'], [{ limit: 24 }]) });
    if (stopped()) return;
    const filter = { sizes: [pick(SIZES)], tags: [pick(TAGS)], manufacturers: [], colors: [] };
    await call('filters + facets', {
      path: trpcGetPath(['catalogue.search', 'catalogue.facets'], [{ ...filter, limit: 24 }, filter]),
    });
    if (stopped()) return;
    await call('text search', { path: trpcGetPath(['catalogue.search'], [{ q: pick(WORDS), limit: 24 }]) });
    if (stopped()) return;
    // Words and filters nobody asked before, in one loop of four: what no cache answers.
    if (rand() < 0.25) {
      await call('distinct listing', { path: distinctListing() });
      if (stopped()) return;
    }
    const product = pick(opts.products);
    await call('product detail', { path: trpcGetPath(['catalogue.byId'], [{ id: product.id }]) });
    if (stopped()) return;
    await call('product page HTML', { path: `/product/${encodeURIComponent(product.id)}` });
  }

  async function checkout(rand: () => number): Promise<void> {
    const lines = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
      const p = opts.products[Math.floor(rand() * opts.products.length)] as Product;
      return { productId: p.id, colour: p.colour, size: p.size, quantity: 1 + Math.floor(rand() * 2) };
    });
    const quote = data<{ ok: boolean }>(
      'checkout quote',
      await call('checkout quote', { path: trpcGetPath(['checkout.quote'], [{ lines }]) }),
    );
    if (!quote || stopped()) return;
    stats.checkoutsStarted += 1;
    const session = data<{ url: string; orderNumber: number }>(
      'create order',
      await call('create order', trpcMutation('checkout.createSession', { lines })),
    );
    if (!session) return;
    stats.ordersCreated += 1;
    const sessionId = new URL(session.url, 'http://store').searchParams.get('session_id') ?? '';
    await call('payment page HTML', { path: session.url });
    const paid = data<{ ok: boolean }>(
      'confirm demo payment',
      await call(
        'confirm demo payment',
        trpcMutation('checkout.completeTestPayment', { sessionId, ...SOAK_SHOPPER }),
      ),
    );
    if (!paid?.ok) return;
    stats.paidSessions.push(sessionId);
    await call('result page HTML', { path: `/checkout/success?session_id=${encodeURIComponent(sessionId)}` });
    await call('result order', { path: trpcGetPath(['checkout.order'], [{ sessionId }]) });
  }

  const shopper = async (index: number) => {
    const rand = mulberry32((opts.seed ?? 1) * 100_003 + index);
    while (!stopped()) {
      if (opts.browse !== false) await browse(rand);
      if (!stopped() && rand() < opts.checkoutRate) await checkout(rand);
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.shoppers }, (_, i) => shopper(i)));
  } finally {
    clearInterval(ticker);
    agent.destroy();
    stats.elapsedMs = performance.now() - started;
  }
  return stats;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export type LatencyRow = { kind: string; count: number; p50: number; p95: number; p99: number; max: number };

export function latencyTable(stats: LoadStats): LatencyRow[] {
  const row = (kind: string, values: number[]): LatencyRow => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      kind,
      count: sorted.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
    };
  };
  const rows = KINDS.map((k) => row(k, stats.latencies.get(k) ?? [])).filter((r) => r.count > 0);
  rows.push(row('all requests', [...stats.latencies.values()].flat()));
  return rows;
}

export function errorTotal(stats: LoadStats): number {
  const e = stats.errors;
  return e.server5xx + e.network + e.unexpected4xx + e.other;
}

/**
 * tRPC answers a batch whose calls ended differently with 207, each call's own status in its error's
 * data.httpStatus: such a batch counts as the status its failed calls share (a 503 for a lost database
 * connection), and as 207 when they differ or the body cannot be read.
 */
function answeredStatus(reply: Reply): number {
  if (reply.status !== 207) return reply.status;
  let calls: unknown;
  try {
    calls = JSON.parse(reply.body);
  } catch {
    return 207;
  }
  if (!Array.isArray(calls)) return 207;
  const failed = new Set<unknown>();
  for (const call of calls as Array<{ error?: { data?: { httpStatus?: unknown } } }>) {
    if (call?.error) failed.add(call.error.data?.httpStatus);
  }
  const [only] = failed;
  return failed.size === 1 && typeof only === 'number' ? only : 207;
}
