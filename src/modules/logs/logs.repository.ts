import { sql } from 'kysely';
import type { DbOrTx, LogLevel } from '../../db/database.js';
import { likeNoCase } from '../../db/engine-sql.js';
import type { LogFilter } from '../../shared/logs.js';

export type LogItem = {
  id: number;
  time: string;
  lastTime: string;
  level: LogLevel;
  source: string;
  message: string;
  /** Formatted JSON text (already redacted and size-limited when written). */
  details: string;
  requestId: string | null;
  repeatCount: number;
};

/** Escapes LIKE's wildcards so a search for "50%" or "a_b" means those characters. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filtered(db: DbOrTx, filter: LogFilter) {
  let query = db.selectFrom('logs');
  if (filter.level) query = query.where('level', '=', filter.level);
  if (filter.source) query = query.where('source', '=', filter.source);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    // Case-insensitive, which is what a log search wants.
    query = query.where((eb) =>
      eb.or(['message', 'details', 'request_id'].map((c) => likeNoCase(db, sql.ref(c), pattern))),
    );
  }
  return query;
}

const columns = [
  'id',
  'time',
  'last_time',
  'level',
  'source',
  'message',
  'details',
  'request_id',
  'repeat_count',
] as const;

type Row = {
  id: number;
  time: string;
  last_time: string;
  level: LogLevel;
  source: string;
  message: string;
  details: string;
  request_id: string | null;
  repeat_count: number;
};

function toItem(r: Row): LogItem {
  return {
    id: r.id,
    time: r.time,
    lastTime: r.last_time,
    level: r.level,
    source: r.source,
    message: r.message,
    details: r.details,
    requestId: r.request_id,
    repeatCount: r.repeat_count,
  };
}

/** Newest first, keyset-paged by id. */
export async function listLogs(
  db: DbOrTx,
  filter: LogFilter & { cursor?: number; limit: number },
): Promise<{ items: LogItem[]; nextCursor: number | null }> {
  let query = filtered(db, filter).select(columns);
  if (filter.cursor) query = query.where('id', '<', filter.cursor);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const page = rows.slice(0, filter.limit).map(toItem);
  return { items: page, nextCursor: rows.length > filter.limit ? (page.at(-1)?.id ?? null) : null };
}

export async function countLogs(db: DbOrTx, filter: LogFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function listLogSources(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectFrom('logs').select('source').distinct().orderBy('source').execute();
  return rows.map((r) => r.source);
}

/** Every matching entry, newest first, in pages (for the JSON lines export). */
export async function* iterateLogs(db: DbOrTx, filter: LogFilter): AsyncGenerator<LogItem> {
  let cursor: number | undefined;
  for (;;) {
    const page = await listLogs(db, { ...filter, cursor, limit: 500 });
    yield* page.items;
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}
