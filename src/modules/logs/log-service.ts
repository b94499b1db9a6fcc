import { sql } from 'kysely';
import type { Db, LogLevel } from '../../db/database.js';
import { later } from '../../db/engine-sql.js';
import { cleanMessage, detailsJson } from './log-details.js';

export type LogEntry = {
  time: Date;
  level: LogLevel;
  source: string;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string | null;
};

export type LogLimits = { maxEntries: number; retentionDays: number };

type Pending = {
  time: Date;
  level: LogLevel;
  source: string;
  message: string;
  details: string;
  requestId: string | null;
};

/** Identical entries (same level, source and message) this close together become one with a repeat count. */
export const FOLD_WINDOW_MS = 2000;
const FLUSH_INTERVAL_MS = 250;
const FLUSH_BATCH = 100;
/** If the database is stuck, keep at most this many entries waiting and drop the oldest. */
const MAX_QUEUE = 10_000;

/**
 * The application log table's one writer. `record` only queues (it never touches the database or throws);
 * the queue is written every 250 ms or every 100 entries, one transaction per batch, so a request never
 * waits for the log. Fed by the logger stream (log-stream.ts): code logs through Fastify's pino logger.
 */
export class LogService {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private dropped = 0;
  private readonly recent = new Map<string, { id: number; lastMs: number }>();

  constructor(
    private readonly deps: {
      db: Db;
      limits: LogLimits;
      /** Where the service reports its own failures (never the logger: that would loop). */
      onError?: (error: unknown) => void;
      /**
       * How long an entry may wait for its batch (250 ms). For tests that must know which write holds which
       * entries: a long interval leaves everything queued until `flush` or `close` (or a full batch).
       */
      flushIntervalMs?: number;
    },
  ) {}

  record(entry: LogEntry): void {
    if (this.closed) return;
    try {
      this.queue.push({
        time: entry.time,
        level: entry.level,
        source: entry.source,
        message: cleanMessage(entry.message),
        details: detailsJson(entry.details ?? {}),
        requestId: entry.requestId ? entry.requestId.slice(0, 100) : null,
      });
      if (this.queue.length > MAX_QUEUE) {
        this.dropped += this.queue.length - MAX_QUEUE;
        this.queue.splice(0, this.queue.length - MAX_QUEUE);
      }
      if (this.queue.length >= FLUSH_BATCH) void this.flush();
      else if (!this.timer) {
        this.timer = setTimeout(() => {
          this.timer = null;
          void this.flush();
        }, this.deps.flushIntervalMs ?? FLUSH_INTERVAL_MS);
        this.timer.unref();
      }
    } catch (error) {
      this.report(error);
    }
  }

  /** Writes everything queued so far; resolves when it is in the table. Never rejects. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeQueued());
    return this.flushing;
  }

  private async writeQueued(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, FLUSH_BATCH);
      try {
        await this.writeBatch(batch);
      } catch (error) {
        this.report(error);
      }
    }
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    const oldest = batch.reduce((ms, e) => Math.min(ms, e.time.getTime()), Number.POSITIVE_INFINITY);
    const newest = batch.reduce((ms, e) => Math.max(ms, e.time.getTime()), 0);
    // Entries nothing in this batch can fold into any more.
    for (const [key, seen] of this.recent) {
      if (oldest - seen.lastMs > FOLD_WINDOW_MS) this.recent.delete(key);
    }
    if (this.dropped > 0) {
      batch.unshift({
        time: new Date(newest),
        level: 'warning',
        source: 'server',
        message: `${this.dropped} log entries were dropped: the database did not keep up`,
        details: '{}',
        requestId: null,
      });
      this.dropped = 0;
    }
    await this.deps.db.transaction().execute(async (trx) => {
      for (const e of batch) {
        const key = `${e.level}\u0000${e.source}\u0000${e.message}`;
        const ms = e.time.getTime();
        const seen = this.recent.get(key);
        if (seen && ms - seen.lastMs <= FOLD_WINDOW_MS && ms >= seen.lastMs - FOLD_WINDOW_MS) {
          const updated = await trx
            .updateTable('logs')
            .set({
              repeat_count: sql<number>`repeat_count + 1`,
              last_time: later(trx, sql.ref('last_time'), e.time.toISOString()),
            })
            .where('id', '=', seen.id)
            .executeTakeFirst();
          if (updated.numUpdatedRows > 0n) {
            seen.lastMs = Math.max(seen.lastMs, ms);
            continue;
          }
        }
        const inserted = await trx
          .insertInto('logs')
          .values({
            time: e.time.toISOString(),
            last_time: e.time.toISOString(),
            level: e.level,
            source: e.source,
            message: e.message,
            details: e.details,
            request_id: e.requestId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        this.recent.set(key, { id: Number(inserted.id), lastMs: ms });
      }
    });
  }

  /** Deletes every entry (after writing what is queued, so nothing logged before the click comes back). */
  async clear(): Promise<number> {
    await this.flush();
    const result = await this.deps.db.deleteFrom('logs').executeTakeFirst();
    this.recent.clear();
    return Number(result.numDeletedRows);
  }

  /** Keeps at most maxEntries entries, none older than retentionDays. */
  async prune(now: Date): Promise<number> {
    const { maxEntries, retentionDays } = this.deps.limits;
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
    const old = await this.deps.db.deleteFrom('logs').where('last_time', '<', cutoff).executeTakeFirst();
    const keepFrom = await this.deps.db
      .selectFrom('logs')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .offset(maxEntries - 1)
      .executeTakeFirst();
    const excess = keepFrom
      ? await this.deps.db.deleteFrom('logs').where('id', '<', keepFrom.id).executeTakeFirst()
      : null;
    return Number(old.numDeletedRows) + Number(excess?.numDeletedRows ?? 0n);
  }

  /** Stops taking entries and writes what is queued. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private report(error: unknown): void {
    try {
      (this.deps.onError ?? defaultOnError)(error);
    } catch {
      // reporting a failure must not fail
    }
  }
}

function defaultOnError(error: unknown): void {
  process.stderr.write(
    `application log: could not write entries: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}
