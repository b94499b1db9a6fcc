import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import type { MailOutbox } from '../email/mail-worker.js';
import { BACK_IN_STOCK_BATCH, notifyBackInStock } from './stock-alerts.js';

/** What request handlers hold: a way to have the shoppers waiting for a size told now. */
export interface BackInStockWatch {
  /**
   * Asks for the back-in-stock emails now, after a commit that may have made a sold-out size available (the
   * owner's stock edit, an import or a publish, units given back by an ended checkout). Returns at once and
   * never throws.
   */
  nudge(): void;
}

/**
 * Queues the back-in-stock emails as soon as a change may have made a size available, on the process that
 * made it, and nudges the outbox's worker to send them. The background round (ops/maintenance.ts) runs
 * the same step every 10 minutes as the safety net: a process that died between its commit and this pass,
 * or units released by a hold that ran out. Passes never overlap; a nudge during one asks for another after
 * it. Sending twice cannot happen: each wish is marked in the transaction that queues its email.
 */
export class BackInStockWorker implements BackInStockWatch {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      log: FastifyBaseLogger;
      mail: MailOutbox;
      /** The store's address, for the product's link in the email. */
      publicUrl: string;
    },
  ) {}

  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // After the current request's response: the owner's save never waits for the emails.
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.passes())
      .finally(() => {
        this.running = null;
      });
  }

  /** Resolves once no pass runs or waits to run (tests wait on it after a nudge). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** No pass after this one; waits for the one in flight (app close, before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        const queued = await notifyBackInStock(this.deps.db, {
          now: this.deps.clock.now(),
          publicUrl: this.deps.publicUrl,
        });
        if (queued > 0) {
          this.deps.log.info({ event: 'stock.back_in_stock', count: queued }, 'back-in-stock emails queued');
          this.deps.mail.nudge();
        }
        // A full batch: more may be waiting.
        if (queued >= BACK_IN_STOCK_BATCH) this.again = true;
      } catch (error) {
        // The background round tries again; the change that nudged is committed whatever happens here.
        this.deps.log.warn(
          { err: error, event: 'stock.back_in_stock-error' },
          'could not queue back-in-stock emails now: the background round will',
        );
        return;
      }
    } while (this.again && !this.stopped);
  }
}

/** A watch that only counts its nudges: the inner context of tests that do not queue these emails. */
export function countingStockWatch(): BackInStockWatch & { nudges: number } {
  return {
    nudges: 0,
    nudge() {
      this.nudges++;
    },
  };
}
