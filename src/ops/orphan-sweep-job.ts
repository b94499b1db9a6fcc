import type { Db } from '../db/database.js';
import { thisProcess, whileHoldingLease } from '../db/job-lease.js';
import { type SweepResult, sweepOrphanUploads } from '../modules/media/orphan-sweep.js';

type SweepDeps = Parameters<typeof sweepOrphanUploads>[0] & { db: Db };

export const ORPHAN_SWEEP_LEASE = 'orphan-sweep';

/**
 * The start-up orphan sweep. On storage several processes share (an S3 bucket), processes that start
 * together would each list and sweep the same files: one sweeps, under a job lease renewed while it sweeps,
 * and the others skip it (the lease is given back at the end, so a process started later sweeps again). On
 * DATA_DIR's folders one process owns the files (the data folder's lock): it always sweeps. Null when another
 * process was sweeping. A sweep whose lease another process took stops early, as on shutdown.
 */
export async function runOrphanSweep(deps: SweepDeps & { holder?: string }): Promise<SweepResult | null> {
  if (!deps.snapshot.storage.shared) return sweepOrphanUploads(deps);
  let result: SweepResult | null = null;
  const lease = {
    name: ORPHAN_SWEEP_LEASE,
    holder: deps.holder ?? thisProcess,
    log: deps.log,
    release: true,
  };
  await whileHoldingLease(deps.db, lease, async (leaseLost) => {
    const signal = deps.signal ? AbortSignal.any([deps.signal, leaseLost]) : leaseLost;
    result = await sweepOrphanUploads({ ...deps, signal });
  });
  return result;
}
