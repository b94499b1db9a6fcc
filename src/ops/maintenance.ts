import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { keepLease, thisProcess, whileHoldingLease } from '../db/job-lease.js';
import { pruneAudit } from '../modules/audit/audit.repository.js';
import { pruneRateCounters } from '../modules/limits/database-counter-store.js';
import type { LogService } from '../modules/logs/log-service.js';
import { startPeriodic } from '../modules/logs/periodic.js';
import { expireAbandonedDemoOrders } from '../modules/orders/abandoned-orders.js';
import { expireOfflineOrders } from '../modules/orders/offline-expiry.js';
import { reconcilePendingOrders } from '../modules/orders/reconcile.js';
import { settlePendingRefunds } from '../modules/orders/refunds.service.js';
import type { PaymentGateway } from '../modules/payments/payment-gateway.js';
import { eraseSpentFits } from '../modules/returns/fit-retention.js';
import { releaseExpiredReservations } from '../modules/stock/reservations.js';
import { notifyBackInStock } from '../modules/stock/stock-alerts.js';
import { pruneVitals } from '../modules/telemetry/vitals.repository.js';

type MaintenanceDeps = {
  db: Db;
  clock: Clock;
  logs: LogService;
  log: FastifyBaseLogger;
  /** Asked about Stripe checkouts still pending (a missed webhook); nothing to ask in demo mode. */
  payments: PaymentGateway;
  /** The store's address, for the links in the emails a late payment queues. */
  publicUrl: string;
  /** How long the admin audit keeps its entries (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
};

/** A checkout younger than this may still be paid for in the shopper's browser: left to its webhook. */
export const RECONCILE_AFTER_MS = 15 * 60_000;

/** A refund still pending this long after Stripe was last asked is asked about again. */
export const SETTLE_REFUNDS_AFTER_MS = 10 * 60_000;

const INTERVAL_MS = 10 * 60_000;
/**
 * How often each process asks for the housekeeping's lease (its holder renews it, the others see whether it
 * is free): a process that takes over after its holder died without giving it up (kill -9) finds it within
 * the lease's minute and this, and runs the round it took over at once.
 */
const CHECK_EVERY_MS = 20_000;
export const MAINTENANCE_LEASE = 'maintenance';

/**
 * One round of housekeeping, on the process holding its lease: when several processes share the database,
 * one of them prunes and expires, the others skip the round. True when this process did the work. The lease
 * is renewed while the round runs and left to its holder afterwards (startMaintenance keeps it); should
 * another process take it meanwhile, the round stops before its next step.
 */
export async function runMaintenance(deps: MaintenanceDeps, holder: string = thisProcess): Promise<boolean> {
  const now = deps.clock.now();
  return whileHoldingLease(
    deps.db,
    { name: MAINTENANCE_LEASE, holder, clock: deps.clock, log: deps.log },
    (signal) => maintenanceRound(deps, now, signal),
  );
}

async function maintenanceRound(deps: MaintenanceDeps, now: Date, signal: AbortSignal): Promise<void> {
  // Stops between steps once another process has taken the lease: it runs the same steps itself.
  await deps.logs.prune(now);
  signal.throwIfAborted();
  await pruneAudit(deps.db, now, deps.auditRetentionDays);
  signal.throwIfAborted();
  await pruneVitals(deps.db, now);
  signal.throwIfAborted();
  await pruneRateCounters(deps.db, now.getTime());
  signal.throwIfAborted();
  const released = await releaseExpiredReservations(deps.db, now);
  if (released > 0)
    deps.log.info({ event: 'stock.released', count: released }, 'stock held by ended checkouts released');
  signal.throwIfAborted();
  const lapsed = await expireOfflineOrders(deps.db, now, deps.publicUrl);
  if (lapsed > 0)
    deps.log.info(
      { event: 'orders.offline_expired', count: lapsed },
      'unconfirmed cash-on-delivery and unpaid transfer orders expired',
    );
  signal.throwIfAborted();
  // After the expiries above, so the units they gave back are told at once.
  const told = await notifyBackInStock(deps.db, { now, publicUrl: deps.publicUrl });
  if (told > 0) deps.log.info({ event: 'stock.back_in_stock', count: told }, 'back-in-stock emails queued');
  signal.throwIfAborted();
  const expired = await expireAbandonedDemoOrders(deps.db, now);
  if (expired > 0)
    deps.log.info({ event: 'orders.expired', count: expired }, 'abandoned demo checkouts expired');
  signal.throwIfAborted();
  // After the expiries: an order expired this round loses its measurements in the same round (decision 0040).
  const erased = await eraseSpentFits(deps.db, now);
  if (erased > 0)
    deps.log.info(
      { event: 'orders.fit_erased', count: erased },
      'fit finder measurements of past orders erased',
    );
  signal.throwIfAborted();
  const reconciled = await reconcilePendingOrders(deps, {
    createdBefore: new Date(now.getTime() - RECONCILE_AFTER_MS),
  });
  if (reconciled.updated > 0 || reconciled.failed > 0)
    deps.log.info({ event: 'orders.reconcile', ...reconciled, account: 'background' }, 'orders reconciled');
  signal.throwIfAborted();
  const refunds = await settlePendingRefunds(deps, {
    olderThan: new Date(now.getTime() - SETTLE_REFUNDS_AFTER_MS),
  });
  if (refunds.settled > 0 || refunds.failed > 0)
    deps.log.info({ event: 'orders.refunds.settled', ...refunds }, 'refunds with a lost answer settled');
}

/**
 * The housekeeping a running store does in the background, never in a request: retention of the
 * application log and the vitals, the rate-limit counters of ended windows, the expiry of abandoned
 * demo checkouts, and asking Stripe about checkouts whose webhook never came. Every 10 minutes on the
 * process that holds the housekeeping's lease, which it renews every 20 s while it lives; the first run 30 s
 * after start, or as soon as this process takes the lease over. Returns the stop function.
 */
export function startMaintenance(deps: MaintenanceDeps, holder: string = thisProcess): () => Promise<void> {
  let lastRun: number | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const lease = keepLease(deps.db, {
    name: MAINTENANCE_LEASE,
    holder,
    clock: deps.clock,
    log: deps.log,
    // Whatever the last holder did, this one runs a round as soon as it may.
    onTaken: () => {
      lastRun = null;
    },
  });
  const stop = startPeriodic(
    async () => {
      if (!(await lease.renew())) return;
      const now = deps.clock.now().getTime();
      if (lastRun !== null && now - lastRun < INTERVAL_MS) return;
      lastRun = now;
      running = maintenanceRound(deps, new Date(now), lease.signal);
      await running;
    },
    {
      intervalMs: CHECK_EVERY_MS,
      firstDelayMs: 30_000,
      onError: (err) => deps.log.warn({ err }, 'background maintenance failed'),
    },
  );
  // Renewed on its own timer, so a round longer than the lease keeps it.
  lease.start();
  return async () => {
    stop();
    await running.catch(() => undefined);
    // Another process may take the housekeeping over at once instead of waiting for the lease to run out.
    await lease.stop({ release: true });
  };
}
