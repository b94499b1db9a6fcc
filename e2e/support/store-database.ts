import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * Runs one statement on the store's own database (PostgreSQL when the run uses it, else the SQLite file in
 * the server's data folder), with `?` placeholders. For set-up no screen can do, such as making a
 * confirmation older than ten minutes without waiting ten minutes.
 */
export async function runOnStore(statement: string, params: unknown[]): Promise<void> {
  const url = process.env.E2E_DATABASE_URL;
  if (url) {
    await onPostgres(url, statement, params);
    return;
  }
  const db = new SQLite(path.join(process.env.E2E_DATA_DIR ?? '', 'store.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(statement).run(...params);
  } finally {
    db.close();
  }
}

/** One statement on the run's PostgreSQL database, `?` placeholders made `$n`; its rows. */
async function onPostgres(url: string, statement: string, params: unknown[]): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let n = 0;
    const result = await client.query(
      statement.replace(/\?/g, () => `$${++n}`),
      params,
    );
    return result.rows;
  } finally {
    await client.end();
  }
}

/** Makes every session of the account look confirmed long ago: its next guarded action asks again. */
export function ageConfirmations(email: string): Promise<void> {
  return runOnStore(
    'UPDATE admin_sessions SET confirmed_at = ? WHERE admin_id = (SELECT id FROM admins WHERE email = ?)',
    ['2000-01-01T00:00:00.000Z', email],
  );
}

/** Reads rows from the store's own database (as runOnStore, with `?` placeholders): what no screen shows. */
export async function queryStore<T>(statement: string, params: unknown[]): Promise<T[]> {
  const url = process.env.E2E_DATABASE_URL;
  if (url) return (await onPostgres(url, statement, params)) as T[];
  const db = new SQLite(path.join(process.env.E2E_DATA_DIR ?? '', 'store.db'), { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    return db.prepare(statement).all(...params) as T[];
  } finally {
    db.close();
  }
}
