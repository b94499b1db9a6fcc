import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import {
  type CounterState,
  type CounterStore,
  MAX_BACKOFF_DOUBLINGS,
  type TakeResult,
  type TakeRule,
} from './counter-store.js';

/**
 * Counters in the rate_counters table, shared by every process on the database. A take is one statement on
 * either engine (INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING): the row is locked while it is counted,
 * so parallel takes from several processes each count once and a limit lets through exactly its number.
 */
export class DatabaseCounterStore implements CounterStore {
  constructor(private readonly db: Db) {}

  async take(key: string, rule: TakeRule, now: number): Promise<TakeResult> {
    // Twice at most: a refusal is read back in a second statement, and the window may end in between.
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await this.tryTake(key, rule, now);
      if (taken) return { taken: true, counter: taken };
      const counter = await this.peek(key, now);
      if (counter) return { taken: false, counter };
    }
    throw new Error(`rate counter ${key} neither counted nor found`);
  }

  private async tryTake(key: string, rule: TakeRule, now: number): Promise<CounterState | undefined> {
    const ended = sql<boolean>`rate_counters.reset_at <= ${now}`;
    const room = sql<boolean>`rate_counters.count < ${rule.limit}`;
    // Past the limit with a backoff: the wait since the last take doubles with each take over the limit.
    const waited =
      rule.backoffMs === undefined
        ? sql<boolean>`1 = 0`
        : sql<boolean>`${now} >= rate_counters.last_at + (CAST(${rule.backoffMs} AS BIGINT) << (CASE
            WHEN rate_counters.count - ${rule.limit} > ${MAX_BACKOFF_DOUBLINGS} THEN ${MAX_BACKOFF_DOUBLINGS}
            ELSE rate_counters.count - ${rule.limit} END))`;
    const row = await this.db
      .insertInto('rate_counters')
      .values({ key, count: 1, reset_at: now + rule.windowMs, last_at: now })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            count: sql<number>`CASE WHEN ${ended} THEN 1 ELSE rate_counters.count + 1 END`,
            reset_at: sql<number>`CASE WHEN ${ended} THEN excluded.reset_at ELSE rate_counters.reset_at END`,
            last_at: sql<number>`excluded.last_at`,
          })
          .where(sql<boolean>`${ended} OR ${room} OR ${waited}`),
      )
      .returning(['count', 'reset_at', 'last_at'])
      .executeTakeFirst();
    return row && { count: row.count, resetAt: row.reset_at, lastAt: row.last_at };
  }

  async peek(key: string, now: number): Promise<CounterState | null> {
    const row = await this.db
      .selectFrom('rate_counters')
      .select(['count', 'reset_at', 'last_at'])
      .where('key', '=', key)
      .where('reset_at', '>', now)
      .executeTakeFirst();
    return row ? { count: row.count, resetAt: row.reset_at, lastAt: row.last_at } : null;
  }

  async refund(key: string, resetAt: number): Promise<void> {
    await this.db
      .updateTable('rate_counters')
      .set({ count: sql<number>`rate_counters.count - 1` })
      .where('key', '=', key)
      .where('reset_at', '=', resetAt)
      .where('count', '>', 0)
      .execute();
  }

  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('rate_counters').where('key', '=', key).execute();
  }

  async announce(key: string, limit: number, now: number): Promise<boolean> {
    const row = await this.db
      .updateTable('rate_counters')
      .set({ announced_window: sql<number>`reset_at` })
      .where('key', '=', key)
      .where('reset_at', '>', now)
      .where('count', '>=', limit)
      .where('announced_window', '<>', sql<number>`reset_at`)
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  prune(now: number): Promise<number> {
    return pruneRateCounters(this.db, now);
  }

  /** The database belongs to the app; nothing of its own to close. */
  async close(): Promise<void> {}
}

/** Deletes the counters whose window has ended (background maintenance, on one process at a time). */
export async function pruneRateCounters(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('rate_counters').where('reset_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
