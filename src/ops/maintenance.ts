import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { pruneAudit } from '../modules/audit/audit.repository.js';
import { pruneRateCounters } from '../modules/limits/database-counter-store.js';
import type { LogService } from '../modules/logs/log-service.js';
import { startPeriodic } from '../modules/logs/periodic.js';
import { expireAbandonedDemoOrders } from '../modules/orders/abandoned-orders.js';
import { reconcilePendingOrders } from '../modules/orders/reconcile.js';
import { settlePendingRefunds } from '../modules/orders/refunds.service.js';
import type { PaymentGateway } from '../modules/payments/payment-gateway.js';
import { releaseExpiredReservations } from '../modules/stock/reservations.js';
import { notifyBackInStock } from '../modules/stock/stock-alerts.js';
import { pruneVitals } from '../modules/telemetry/vitals.repository.js';
import { releaseLease, thisProcess, whileHoldingLease } from './job-lease.js';

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
/** Outlives the interval, so the process that runs the housekeeping keeps it while it lives. */
const LEASE = { name: 'maintenance', ttlMs: 15 * 60_000 };

/**
 * One round of housekeeping, on the process holding its lease: when several processes share the database,
 * one of them prunes and expires, the others skip the round. True when this process did the work.
 */
export async function runMaintenance(deps: MaintenanceDeps, holder: string = thisProcess): Promise<boolean> {
  const now = deps.clock.now();
  return whileHoldingLease(deps.db, { ...LEASE, holder, now }, async () => {
    await deps.logs.prune(now);
    await pruneAudit(deps.db, now, deps.auditRetentionDays);
    await pruneVitals(deps.db, now);
    await pruneRateCounters(deps.db, now.getTime());
    const released = await releaseExpiredReservations(deps.db, now);
    if (released > 0)
      deps.log.info({ event: 'stock.released', count: released }, 'stock held by ended checkouts released');
    const told = await notifyBackInStock(deps.db, { now, publicUrl: deps.publicUrl });
    if (told > 0) deps.log.info({ event: 'stock.back_in_stock', count: told }, 'back-in-stock emails queued');
    const expired = await expireAbandonedDemoOrders(deps.db, now);
    if (expired > 0)
      deps.log.info({ event: 'orders.expired', count: expired }, 'abandoned demo checkouts expired');
    const reconciled = await reconcilePendingOrders(deps, {
      createdBefore: new Date(now.getTime() - RECONCILE_AFTER_MS),
    });
    if (reconciled.updated > 0 || reconciled.failed > 0)
      deps.log.info({ event: 'orders.reconcile', ...reconciled, account: 'background' }, 'orders reconciled');
    const refunds = await settlePendingRefunds(deps, {
      olderThan: new Date(now.getTime() - SETTLE_REFUNDS_AFTER_MS),
    });
    if (refunds.settled > 0 || refunds.failed > 0)
      deps.log.info({ event: 'orders.refunds.settled', ...refunds }, 'refunds with a lost answer settled');
  });
}

/**
 * The housekeeping a running store does in the background, never in a request: retention of the
 * application log and the vitals, the rate-limit counters of ended windows, the expiry of abandoned
 * demo checkouts, and asking Stripe about checkouts whose webhook never came. Every 10 minutes, the first
 * run 30 s after start, on one process at a time (runMaintenance). Returns the stop function.
 */
export function startMaintenance(deps: MaintenanceDeps): () => Promise<void> {
  const stop = startPeriodic(() => runMaintenance(deps).then(() => undefined), {
    intervalMs: INTERVAL_MS,
    firstDelayMs: 30_000,
    onError: (err) => deps.log.warn({ err }, 'background maintenance failed'),
  });
  return async () => {
    stop();
    // Another process may take the housekeeping over at once instead of waiting for the lease to run out.
    await releaseLease(deps.db, { name: LEASE.name, holder: thisProcess }).catch(() => undefined);
  };
}
