import pg from 'pg';
import { STORE_APPLICATION_NAME } from '../../db/postgres/connect-postgres.js';

/**
 * What the operations commands (backup, restore, doctor) ask the PostgreSQL server, on one short connection
 * of their own. It is named apart from the store's connections, so that counting those leaves it out.
 */
export const OPS_APPLICATION_NAME = 'storefront-ops';

export async function withOpsClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    application_name: OPS_APPLICATION_NAME,
    connectionTimeoutMillis: 10_000,
  });
  // A connection the server ends (a restart) fails the query in flight or the next one; without a
  // listener the client's 'error' event would end the process, the store's own when a scheduled backup runs.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export type ServerInfo = { version: string; major: number };

/** "15.20 (Debian 15.20-0+deb12u1)" and its major version (150020 -> 15; 90624 -> 9). */
export async function serverInfo(client: pg.Client): Promise<ServerInfo> {
  const { rows } = await client.query<{ version: string; num: string }>(
    "SELECT current_setting('server_version') AS version, current_setting('server_version_num') AS num",
  );
  const row = rows[0];
  if (!row) throw new Error('the server did not say its version');
  return { version: row.version, major: Math.floor(Number(row.num) / 10_000) };
}

/** Migrations recorded in the database (Kysely's table, in the search path); none when never migrated. */
export async function appliedPostgresMigrations(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('kysely_migration') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return [];
  const result = await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
  return result.rows.map((r) => r.name);
}

/**
 * Connections of store processes to this database (by their application_name), besides this one. A store
 * keeps a pool and a listening connection open for as long as it runs, so any count above 0 means one runs.
 */
export async function storeConnections(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
    [STORE_APPLICATION_NAME],
  );
  return Number(rows[0]?.n ?? 0);
}

/** A DATABASE_URL fit to print: host, port and database, never the user's password. */
export function describeUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}
