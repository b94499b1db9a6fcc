import type { CounterStore } from './counter-store.js';
import { FixedWindowLimiter } from './fixed-window-limiter.js';
import { DEFAULT_GATE_LIMITS, PublicCallGate } from './public-call-gate.js';

/** Per-address limits on what anyone may ask of the store without signing in. */
export type RequestLimits = {
  /** Every public query: time budget per address, one at a time, bounded wait (public-call-gate.ts). */
  publicQueries: PublicCallGate;
  /** Checkout sessions (each makes a pending order and a payment provider session) per address. */
  checkoutSessions: FixedWindowLimiter;
  /** "Email me when it is back" requests per address (each may send an email later). */
  stockAlerts: FixedWindowLimiter;
  /** Wrong discount codes per address (decision 0037): codes are not to be found by trying many. */
  wrongCodes: FixedWindowLimiter;
  /** Return requests per address (decision 0039): each holds stock and emails the shop's customer. */
  returnRequests: FixedWindowLimiter;
};

export const RETURN_REQUESTS_PER_WINDOW = 10;
export const RETURN_REQUEST_WINDOW_MS = 60 * 60_000;

/** Wrong discount codes an address may try in WRONG_CODE_WINDOW_MS. */
export const WRONG_CODES_PER_WINDOW = 10;
export const WRONG_CODE_WINDOW_MS = 10 * 60_000;

export const CHECKOUT_WINDOW_MS = 10 * 60_000;
/** An address may spend this many seconds' worth of its query budget at once. */
const BURST_SECONDS = 10;

/**
 * The limits from the configuration (PUBLIC_QUERY_MS_PER_SECOND, CHECKOUTS_PER_IP). A query budget of 0 and
 * `unlimited` (tests of other things) turn the budgets off; the gate still runs calls one per turn.
 * Checkouts are counted in `counters` when given (shared by every process, decision 0017). The query budget
 * stays per process: it meters this process's own thread, and checking a shared one would put a round trip
 * in front of every public query.
 */
export function createRequestLimits(
  opts: {
    queryMsPerSecond?: number;
    checkoutsPerIp?: number;
    unlimited?: boolean;
    /** Public queries that may run at once (GateLimits.concurrency): 1 on SQLite. */
    concurrency?: number;
    counters?: CounterStore;
    onStoreError?: (error: unknown) => void;
  } = {},
): RequestLimits {
  const none = Number.POSITIVE_INFINITY;
  const perSecond = opts.unlimited ? 0 : (opts.queryMsPerSecond ?? DEFAULT_GATE_LIMITS.refillMsPerSecond);
  const gate = { ...DEFAULT_GATE_LIMITS, concurrency: opts.concurrency ?? 1 };
  return {
    publicQueries: new PublicCallGate(
      perSecond === 0
        ? { ...gate, burstMs: none, ...(opts.unlimited ? { maxQueued: none, maxWaitMs: none } : {}) }
        : { ...gate, refillMsPerSecond: perSecond, burstMs: perSecond * BURST_SECONDS },
    ),
    checkoutSessions: new FixedWindowLimiter({
      limit: opts.unlimited ? none : (opts.checkoutsPerIp ?? 10),
      windowMs: CHECKOUT_WINDOW_MS,
      shared: opts.counters && { store: opts.counters, name: 'checkout', onError: opts.onStoreError },
    }),
    stockAlerts: new FixedWindowLimiter({
      limit: opts.unlimited ? none : 20,
      windowMs: 60 * 60_000,
      shared: opts.counters && { store: opts.counters, name: 'stock-alert', onError: opts.onStoreError },
    }),
    // Not lifted by `unlimited`: tests of other things never type ten wrong codes, and the limit is the rule.
    wrongCodes: new FixedWindowLimiter({
      limit: WRONG_CODES_PER_WINDOW,
      windowMs: WRONG_CODE_WINDOW_MS,
      shared: opts.counters && { store: opts.counters, name: 'wrong-code', onError: opts.onStoreError },
    }),
    returnRequests: new FixedWindowLimiter({
      limit: opts.unlimited ? none : RETURN_REQUESTS_PER_WINDOW,
      windowMs: RETURN_REQUEST_WINDOW_MS,
      shared: opts.counters && { store: opts.counters, name: 'return-request', onError: opts.onStoreError },
    }),
  };
}
