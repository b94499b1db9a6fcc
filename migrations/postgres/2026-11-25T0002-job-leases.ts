import { type Kysely, sql } from 'kysely';

/** As migrations/2026-11-25T0015-job-leases.ts, with a timestamptz expiry. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE job_leases (
    name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
    holder text NOT NULL,
    expires_at timestamptz NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE job_leases`.execute(db);
}
