import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import type { LogService } from '../modules/logs/log-service.js';
import { startPeriodic } from '../modules/logs/periodic.js';
import { expireAbandonedDemoOrders } from '../modules/orders/abandoned-orders.js';
import { pruneVitals } from '../modules/telemetry/vitals.repository.js';

/**
 * The housekeeping a running store does in the background, never in a request: retention of the
 * application log and the vitals, and the expiry of abandoned demo checkouts. Every 10 minutes, the first
 * run 30 s after start. Returns the stop function.
 */
export function startMaintenance(deps: {
  db: Db;
  clock: Clock;
  logs: LogService;
  log: FastifyBaseLogger;
}): () => void {
  return startPeriodic(
    async () => {
      const now = deps.clock.now();
      await deps.logs.prune(now);
      await pruneVitals(deps.db, now);
      const expired = await expireAbandonedDemoOrders(deps.db, now);
      if (expired > 0)
        deps.log.info({ event: 'orders.expired', count: expired }, 'abandoned demo checkouts expired');
    },
    {
      intervalMs: 10 * 60_000,
      firstDelayMs: 30_000,
      onError: (err) => deps.log.warn({ err }, 'background maintenance failed'),
    },
  );
}
