import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/database.js';

/** This process, as a lease holder: unique across machines and restarts. */
export const thisProcess = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Takes or renews the lease on a background job until `now + ttlMs`, in one statement: the row is written
 * only when nobody holds it, its holder's time has run out, or this holder renews it. True when this holder
 * has the lease afterwards. Works alike on SQLite and PostgreSQL (INSERT … ON CONFLICT … WHERE, RETURNING).
 */
export async function takeLease(
  db: Db,
  job: { name: string; holder: string; ttlMs: number; now: Date },
): Promise<boolean> {
  const nowIso = job.now.toISOString();
  const expiresAt = new Date(job.now.getTime() + job.ttlMs).toISOString();
  const row = await db
    .insertInto('job_leases')
    .values({ name: job.name, holder: job.holder, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder: job.holder, expires_at: expiresAt })
        .where((eb) =>
          eb.or([eb('job_leases.expires_at', '<=', nowIso), eb('job_leases.holder', '=', job.holder)]),
        ),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === job.holder;
}

/** Gives the lease up at once (on shutdown), so another process need not wait for it to expire. */
export async function releaseLease(db: Db, job: { name: string; holder: string }): Promise<void> {
  await db.deleteFrom('job_leases').where('name', '=', job.name).where('holder', '=', job.holder).execute();
}

/**
 * Runs `work` only if this process holds the job's lease, which lasts `ttlMs` (longer than the work takes and
 * than the interval between runs, so the holder keeps it while it lives). False when another process has it.
 */
export async function whileHoldingLease(
  db: Db,
  job: { name: string; holder: string; ttlMs: number; now: Date },
  work: () => Promise<void>,
): Promise<boolean> {
  if (!(await takeLease(db, job))) return false;
  await work();
  return true;
}
