import type { Db } from '../db/database.js';
import { type SweepResult, sweepOrphanUploads } from '../modules/media/orphan-sweep.js';
import { releaseLease, takeLease, thisProcess } from './job-lease.js';

type SweepDeps = Parameters<typeof sweepOrphanUploads>[0] & { db: Db };

export const ORPHAN_SWEEP_LEASE = 'orphan-sweep';
/** Longer than a sweep takes; released as soon as it ends. */
const LEASE_MS = 30 * 60_000;

/**
 * The start-up orphan sweep. On storage several processes share (an S3 bucket), processes that start
 * together would each list and sweep the same files: one sweeps, under a job lease, and the others skip it
 * (the lease is given back at the end, so a process started later sweeps again). On DATA_DIR's folders one
 * process owns the files (the data folder's lock): it always sweeps. Null when another process was sweeping.
 */
export async function runOrphanSweep(deps: SweepDeps & { holder?: string }): Promise<SweepResult | null> {
  if (!deps.snapshot.storage.shared) return sweepOrphanUploads(deps);
  const lease = { name: ORPHAN_SWEEP_LEASE, holder: deps.holder ?? thisProcess };
  if (!(await takeLease(deps.db, { ...lease, ttlMs: LEASE_MS, now: new Date() }))) return null;
  try {
    return await sweepOrphanUploads(deps);
  } finally {
    await releaseLease(deps.db, lease);
  }
}
