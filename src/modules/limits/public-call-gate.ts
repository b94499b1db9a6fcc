/**
 * What a shopper's address may ask of the store's own time. Public queries run on the one thread the whole
 * store shares (SQLite is synchronous), so an address that sends many uncached searches would hold every
 * other request behind its own. The gate does three things before each call:
 *
 * - charges the address for the time its calls actually take (a leaky bucket in milliseconds of work):
 *   cheap calls cost little, slow ones a lot, and an address over its budget waits with a 429;
 * - yields to the event loop once calls have run back to back for a slice of time since it last turned,
 *   so a batch of calls cannot run as one block: health checks, cached answers and other shoppers get
 *   their turn at least every `sliceMs` (and one call);
 * - bounds the time a call may wait for its turn: when too many are queued, or one waited too long, it is
 *   refused with a 503 rather than answered after the asker has given up.
 *
 * Kept in memory, per process, also when the store runs as several (decision 0017): what it meters and
 * shares out is this process's own thread, and a shared budget would put a round trip to the database or
 * Redis in front of every public query. An address spread over N processes by the load balancer gets N
 * budgets, one on each thread.
 */
export type GateLimits = {
  /** Milliseconds of work an address may spend at once (the bucket's size). */
  burstMs: number;
  /** Milliseconds of work an address earns back per second. */
  refillMsPerSecond: number;
  /** The least a call is charged, however fast it was (it still cost a request's handling). */
  minChargeMs: number;
  /** Calls waiting for their turn, over all addresses, before new ones are refused. */
  maxQueued: number;
  /** A call that waited this long for its turn is refused instead of run. */
  maxWaitMs: number;
  /**
   * Milliseconds public calls may run back to back before the event loop gets a turn (0: one before every
   * call but the first). A turn before every call cost 6-8 % of the CPU of a listing at 10,000 products:
   * two calls a listing, each a loop iteration of its own (a poll for I/O among them).
   */
  sliceMs: number;
  /**
   * Calls that may run at once. 1 on SQLite, whose work is synchronous: running calls "together" would only
   * run them back to back. On PostgreSQL a call mostly waits for the server, and one at a time left the
   * thread idle a third of the time under the cache-miss stream: there, as many as the pool has
   * connections.
   */
  concurrency: number;
};

export const DEFAULT_GATE_LIMITS: GateLimits = {
  burstMs: 3_000,
  refillMsPerSecond: 300,
  minChargeMs: 5,
  maxQueued: 200,
  maxWaitMs: 2_000,
  sliceMs: 2,
  concurrency: 1,
};

const MAX_TRACKED = 20_000;

export type GateRefusal =
  | { kind: 'rate'; retryAfterSeconds: number }
  | { kind: 'busy'; reason: 'queue' | 'wait' };

export class GateRefusedError extends Error {
  override name = 'GateRefusedError';
  constructor(readonly refusal: GateRefusal) {
    super(refusal.kind === 'rate' ? 'rate limited' : `busy (${refusal.reason})`);
  }

  /** Read by the API's responseMeta (trpc/retry-after.ts) for the Retry-After header. */
  get retryAfterSeconds(): number | undefined {
    return this.refusal.kind === 'rate' ? this.refusal.retryAfterSeconds : undefined;
  }
}

type Bucket = { level: number; at: number };

export class PublicCallGate {
  private readonly buckets = new Map<string, Bucket>();
  private queued = 0;
  /** Calls running now, and those waiting for one of them to end, first come first served. */
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** When the calls running back to back since the event loop last turned began (null: it has turned). */
  private stretchFrom: number | null = null;

  constructor(
    private readonly limits: GateLimits = DEFAULT_GATE_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Runs `call` for `address` in its turn; throws GateRefusedError when it may not run. At most
   * `concurrency` calls run at once (one on SQLite, whose work is synchronous); an address's budget is
   * checked when its call's turn comes, so up to that many of its calls may start on the last of it.
   */
  async run<T>(address: string, call: () => Promise<T>, charged?: (ms: number) => void): Promise<T> {
    if (this.queued >= this.limits.maxQueued) throw new GateRefusedError({ kind: 'busy', reason: 'queue' });
    this.queued += 1;
    const asked = this.now();
    let dequeued = false;
    let holding = false;
    try {
      await this.turn();
      holding = true;
      await this.sliceOfTheThread();
      this.queued -= 1;
      dequeued = true;
      const started = this.now();
      if (started - asked > this.limits.maxWaitMs)
        throw new GateRefusedError({ kind: 'busy', reason: 'wait' });
      // Checked in turn, after the calls before it were charged: a burst cannot all pass on a full bucket.
      const bucket = this.bucket(address);
      if (bucket.level <= 0) {
        const seconds = Math.ceil((this.limits.minChargeMs - bucket.level) / this.limits.refillMsPerSecond);
        throw new GateRefusedError({ kind: 'rate', retryAfterSeconds: Math.max(1, seconds) });
      }
      try {
        return await call();
      } finally {
        const ms = Math.max(this.limits.minChargeMs, this.now() - started);
        this.charge(address, ms);
        charged?.(ms);
      }
    } finally {
      if (!dequeued) this.queued -= 1;
      if (holding) this.release();
    }
  }

  /**
   * Lets the event loop turn first (I/O: health checks, cached answers, new requests) when calls have run
   * back to back for a slice, and starts a new stretch when it has turned since the last call.
   */
  private async sliceOfTheThread(): Promise<void> {
    if (this.stretchFrom !== null && this.now() - this.stretchFrom >= this.limits.sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (this.stretchFrom !== null) return;
    this.stretchFrom = this.now();
    // Runs in the loop's check phase, after its poll for I/O: the loop has turned.
    setImmediate(() => {
      this.stretchFrom = null;
    });
  }

  /** Waits until fewer than `concurrency` calls run, then counts this one in. */
  private async turn(): Promise<void> {
    if (this.running < this.limits.concurrency && this.waiting.length === 0) {
      this.running += 1;
      return;
    }
    // The call that ends hands its place over: `running` stays as it is.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  /**
   * Gives back time charged for calls whose answers were thrown away and are asked again (an in-process
   * answer that tRPC then writes, http/public-api-cache.ts), so they are not paid twice.
   */
  refund(address: string, ms: number): void {
    const b = this.bucket(address);
    b.level = Math.min(this.limits.burstMs, b.level + ms);
  }

  private bucket(address: string): Bucket {
    const t = this.now();
    let b = this.buckets.get(address);
    if (!b) {
      if (this.buckets.size >= MAX_TRACKED) this.prune(t);
      b = { level: this.limits.burstMs, at: t };
      this.buckets.set(address, b);
      return b;
    }
    b.level = Math.min(this.limits.burstMs, b.level + ((t - b.at) / 1000) * this.limits.refillMsPerSecond);
    b.at = t;
    return b;
  }

  private charge(address: string, ms: number): void {
    const b = this.bucket(address);
    b.level -= ms;
  }

  private prune(t: number): void {
    // Full buckets hold nothing worth remembering.
    for (const [k, b] of this.buckets) {
      if (b.level + ((t - b.at) / 1000) * this.limits.refillMsPerSecond >= this.limits.burstMs) {
        this.buckets.delete(k);
      }
    }
    const excess = this.buckets.size - MAX_TRACKED + 1;
    if (excess > 0) for (const k of [...this.buckets.keys()].slice(0, excess)) this.buckets.delete(k);
  }
}
