import type SQLite from 'better-sqlite3';

/** Reads the storefront revision: a counter that triggers move on every change the storefront shows. */
export type RevisionReader = () => string;

/**
 * A prepared statement, read on every cached request: a few microseconds, and right even when another
 * process (the admin CLI, a second server on the same file) made the change.
 */
export function revisionReader(sqlite: SQLite.Database): RevisionReader {
  const statement = sqlite
    .prepare<[], string>("SELECT value FROM app_meta WHERE key = 'catalogue_version'")
    .pluck();
  return () => statement.get() ?? '0';
}

/** The revision now, or null when it cannot be read (the database closing): callers then skip caching. */
export function currentRevision(read: RevisionReader): string | null {
  try {
    return read();
  } catch {
    return null;
  }
}
