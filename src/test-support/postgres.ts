import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server the tests use: 127.0.0.1:5432 with trust authentication on our machines (and in CI,
 * which starts it), or TEST_DATABASE_URL's server. Each test file gets a throwaway database of its own.
 */
export const postgresAdminUrl =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type ThrowawayDatabase = { url: string; name: string; drop(): Promise<void> };

export function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `run` on a connection of the tests' server, to its `postgres` database or to `database`. */
export async function asPostgresAdmin<T>(
  run: (client: pg.Client) => Promise<T>,
  database?: string,
): Promise<T> {
  const url = database ? databaseUrl(postgresAdminUrl, database) : postgresAdminUrl;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database with a random name; drop() removes it, closing whatever still uses it. */
export async function createThrowawayDatabase(prefix = 'store_test'): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asPostgresAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`));
  return {
    name,
    url: databaseUrl(postgresAdminUrl, name),
    drop: () =>
      asPostgresAdmin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
