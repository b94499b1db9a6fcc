import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/database.js';
import { startPeriodic } from '../logs/periodic.js';
import { readStoredSettings } from '../settings/settings.repository.js';
import { sumMarkedDays } from './summary-refresh.js';

/**
 * How often a running store sums the days its writes marked (decision 0041 "Speed"): a payment's day and
 * month take 100-300 ms to sum again at 100,000 orders, which an owner's next read would otherwise wait
 * for. Every few seconds, so that read finds nothing left unless it comes right after a payment; it still
 * sums what is left itself, so it is never behind the orders.
 */
export const SUMMARY_KEEPER_INTERVAL_MS = 5_000;

/**
 * Starts the background summing in this process; returns the stop function. Several processes may run it:
 * the summaries' lock lets one sum a mark and the others find it gone.
 */
export function startSummaryKeeper(
  deps: { db: DbOrTx; log: FastifyBaseLogger },
  intervalMs: number = SUMMARY_KEEPER_INTERVAL_MS,
): () => void {
  return startPeriodic(
    async () => {
      const settings = await readStoredSettings(deps.db);
      await sumMarkedDays(deps.db, settings.timeZone ?? 'UTC');
    },
    {
      intervalMs,
      firstDelayMs: intervalMs,
      onError: (err) =>
        deps.log.warn(
          { err, event: 'dashboard.summary_failed' },
          'the dashboard summaries could not be summed',
        ),
    },
  );
}
