import type SQLite from 'better-sqlite3';

/**
 * The storefront revision: a counter in app_meta that triggers move on every change the storefront shows
 * (products, media, settings, the version line), whichever process makes it. Cached answers are keyed by it.
 */
export const STOREFRONT_REVISION_KEY = 'storefront_revision';

/**
 * Reads the storefront revision. `settle`, where the reader keeps a copy that other processes' changes
 * reach by notification (PostgreSQL), brings that copy up to date first when it may be behind this
 * process's own last write; the caches await it before reading. `settled`, where settling reads the
 * revision itself (the clock-following reader, which loads the revision's sales), answers with that read,
 * so a request reads the stored revision once, not twice (each read is a statement on SQLite).
 */
export type RevisionReader = (() => string) & {
  settle?: () => Promise<void>;
  settled?: () => Promise<string>;
};

/**
 * A prepared statement, read on every cached request: a few microseconds, and right even when another
 * process (the admin CLI, a second server on the same file) made the change. Give it the read-only
 * connection (DatabaseHandle.reader): on the write connection, while a transaction is open across an await
 * (an import lets other requests run), it would read the transaction's uncommitted revision, and an answer
 * computed from committed data would be cached under it. So on a connection inside a transaction it throws
 * (currentRevision: null, nothing cached) rather than answer.
 */
export function revisionReader(sqlite: SQLite.Database): RevisionReader {
  const statement = sqlite.prepare<[string], string>('SELECT value FROM app_meta WHERE key = ?').pluck();
  return () => {
    if (sqlite.inTransaction) throw new Error('the revision is not committed yet: a transaction is open');
    return statement.get(STOREFRONT_REVISION_KEY) ?? '0';
  };
}

/** The revision once settled (see RevisionReader), or null when it cannot be read: callers then skip caching. */
export async function settledRevision(read: RevisionReader): Promise<string | null> {
  try {
    if (read.settled) return await read.settled();
    await read.settle?.();
  } catch {
    return null;
  }
  return currentRevision(read);
}

/** The revision now, or null when it cannot be read (the database closing): callers then skip caching. */
export function currentRevision(read: RevisionReader): string | null {
  try {
    return read();
  } catch {
    return null;
  }
}
