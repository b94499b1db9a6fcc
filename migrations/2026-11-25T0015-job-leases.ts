import { type Kysely, sql } from 'kysely';

/**
 * Background jobs (retention, demo-order expiry, backups, the orphan sweep) run on one process at a time:
 * the process that holds a job's lease until it expires. See src/ops/job-lease.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE job_leases (
    name TEXT PRIMARY KEY NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    holder TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) STRICT`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE job_leases`.execute(db);
}
