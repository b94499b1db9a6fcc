import pino from 'pino';
import { loadConfig } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { createMailWorker, type MailWorker } from '../modules/email/mail-worker.js';
import { type OrderEmailData, orderConfirmationEmail } from '../modules/email/order-emails.js';
import { enqueueEmail } from '../modules/email/outbox.repository.js';
import { insertPendingOrder } from '../modules/orders/orders.repository.js';
import { updateSettings } from '../modules/settings/settings.repository.js';
import type { TestStore } from './test-store.js';

/** Test helpers of the email module: an order to mail about, a worker with a readable log, a queued email. */

export const T0 = '2026-11-25T10:00:00.000Z';

export const orderData = (overrides: Partial<OrderEmailData['order']> = {}): OrderEmailData => ({
  store: {
    name: 'Zari & Co',
    contactEmail: 'help@zari.example',
    contactUrl: 'https://zari.example/contact',
    publicUrl: 'https://shop.example',
  },
  order: {
    number: 1042,
    currency: 'usd',
    lines: [
      { title: 'Lawn Kurta', size: 'M', quantity: 2, unitPriceMinor: 4450, lineTotalMinor: 8900 },
      { title: 'Silk Dupatta', size: null, quantity: 1, unitPriceMinor: 1999, lineTotalMinor: 1999 },
    ],
    subtotalMinor: 10899,
    totalMinor: 11899,
    customerName: 'Amina Khan',
    shippingAddress: {
      name: 'Amina Khan',
      line1: '12 Mall Road',
      line2: null,
      city: 'Lahore',
      state: 'Punjab',
      postalCode: '54000',
      country: 'PK',
    },
    pageUrl: 'https://shop.example/order/ord_1?token=abc123',
    ...overrides,
  },
});

/** An order row (the outbox's order_id refers to it) and the store's name and contact address. */
export async function seedOrder(db: Db, id = 'ord_1', now = new Date(T0)): Promise<void> {
  await db.transaction().execute((trx) =>
    insertPendingOrder(trx, {
      id,
      currency: 'usd',
      paymentMode: 'demo',
      lines: [
        {
          productId: 'p1',
          title: 'Lawn Kurta',
          colour: null,
          size: 'M',
          quantity: 2,
          unitPriceMinor: 4450,
          imageUrl: null,
        },
      ],
      now,
    }),
  );
  await updateSettings(db, { storeName: 'Zari & Co', contactEmail: 'help@zari.example' }, now);
}

/** Queues the confirmation of `orderId` to `to` in a transaction of its own, as a caller would. */
export async function queueConfirmation(
  db: Db,
  opts: { orderId?: string; to?: string; number?: number; now?: Date } = {},
): Promise<string> {
  const rendered = orderConfirmationEmail(orderData({ number: opts.number ?? 1042 }));
  return db.transaction().execute((trx) =>
    enqueueEmail(
      trx,
      {
        kind: 'order_confirmation',
        orderId: opts.orderId ?? 'ord_1',
        to: opts.to ?? 'amina@example.com',
        ...rendered,
      },
      opts.now ?? new Date(T0),
    ),
  );
}

export type LogLine = Record<string, unknown> & { event?: string; msg?: string };

/** A logger whose lines the test reads (raw, to prove what never appears in them, and parsed). */
export function captureLog() {
  const raw: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void raw.push(line) });
  return {
    log,
    raw,
    lines: () => raw.map((l) => JSON.parse(l) as LogLine),
    events: (event: string) => raw.map((l) => JSON.parse(l) as LogLine).filter((l) => l.event === event),
  };
}

/** A worker as the app would build it from these variables, on `db`, with its own clock and holder name. */
export function workerFor(
  store: TestStore,
  opts: {
    db?: Db;
    env?: Record<string, string>;
    clock: Clock;
    log: ReturnType<typeof captureLog>['log'];
    holder?: string;
  },
): MailWorker {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: store.dir,
    PUBLIC_URL: 'https://shop.example',
    ...opts.env,
  });
  return createMailWorker({
    db: opts.db ?? store.handle.db,
    clock: opts.clock,
    log: opts.log,
    config,
    holder: opts.holder ?? 'test-process',
  });
}
