/** Events named `security.*` are refusals anyone can cause at will (401s, cross-site requests). */
export const SECURITY_EVENT_PREFIX = 'security.';

export type SecurityGateLimits = {
  /** Entries of one event recorded back to back before the limit starts. */
  burst: number;
  /** Entries of one event per hour after that. */
  perHour: number;
};

/**
 * Per event: 10 at once, then 3 an hour. With the summaries that is at most ~6 rows an hour per event, about
 * 600 a day for the three events there are: a month of attack fills a third of the default 50,000-entry
 * log, and the older entries an operator needs are not pushed out within days.
 */
export const DEFAULT_SECURITY_LIMITS: SecurityGateLimits = { burst: 10, perHour: 3 };

/** An attacker cannot invent event names, but code could; past this many, events share one bucket. */
const MAX_EVENTS = 50;
const OVERFLOW_KEY = 'security.other';

export type NotRecorded = { event: string; count: number; from: Date; to: Date };

type Bucket = { tokens: number; atMs: number; skipped: number; fromMs: number; toMs: number };

/**
 * Decides which security events reach the application log table, so that a flood of refusals can neither
 * fill the table nor push real entries out of it (it keeps a fixed number of entries). A token bucket per
 * event; what it turns away is counted, and the count comes out as one summary (NotRecorded) as soon as
 * the event may be recorded again: with its next entry, or at the next log line of any kind (see `due`).
 * Standard output still gets every line. In memory and per process, like the other rate limits.
 */
export class SecurityGate {
  private readonly buckets = new Map<string, Bucket>();
  private pending = 0;

  constructor(private readonly limits: SecurityGateLimits = DEFAULT_SECURITY_LIMITS) {}

  /** Whether this entry of `event` goes to the table, and the summary of what was turned away before it. */
  admit(event: string, nowMs: number): { record: boolean; notRecorded: NotRecorded | null } {
    const key = this.buckets.has(event) || this.buckets.size < MAX_EVENTS ? event : OVERFLOW_KEY;
    const bucket = this.refilled(key, nowMs);
    if (bucket.tokens < 1) {
      if (bucket.skipped === 0) {
        bucket.fromMs = nowMs;
        this.pending += 1;
      }
      bucket.skipped += 1;
      bucket.toMs = nowMs;
      return { record: false, notRecorded: null };
    }
    bucket.tokens -= 1;
    return { record: true, notRecorded: this.takeSummary(key, bucket) };
  }

  /** Summaries whose events may be recorded again by now; cheap when nothing was turned away. */
  due(nowMs: number): NotRecorded[] {
    if (this.pending === 0) return [];
    const out: NotRecorded[] = [];
    for (const key of this.buckets.keys()) {
      const bucket = this.refilled(key, nowMs);
      const summary = bucket.tokens >= 1 ? this.takeSummary(key, bucket) : null;
      if (summary) out.push(summary);
    }
    return out;
  }

  private takeSummary(event: string, bucket: Bucket): NotRecorded | null {
    if (bucket.skipped === 0) return null;
    const summary = {
      event,
      count: bucket.skipped,
      from: new Date(bucket.fromMs),
      to: new Date(bucket.toMs),
    };
    bucket.skipped = 0;
    this.pending -= 1;
    return summary;
  }

  private refilled(key: string, nowMs: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.limits.burst, atMs: nowMs, skipped: 0, fromMs: 0, toMs: 0 };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = Math.max(0, nowMs - bucket.atMs);
    bucket.tokens = Math.min(this.limits.burst, bucket.tokens + (elapsed * this.limits.perHour) / 3_600_000);
    bucket.atMs = Math.max(bucket.atMs, nowMs);
    return bucket;
  }
}
