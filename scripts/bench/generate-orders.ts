/**
 * A year and more of a shop's trade for the dashboard's bench (issue 44): orders over `days` days up to `now`
 * (more of them lately, fewer at night), each with one to four lines of the generated catalogue's products in
 * their sizes and colours, in two currencies and three payment methods, some on sale or with a code, about 5%
 * refunded and 3% returned; and the storefront's web vitals samples and log rows over the same days. Every
 * order adds up as the store writes it (subtotal − code + shipping + fee = total; refunded_minor = the
 * pending and succeeded refunds), so the dashboard's figures can be checked against the orders CSV's.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { colourKey } from '../../src/shared/colours.js';
import type { BenchEngine } from './bench-database.js';
import { type BulkRow, insertRows } from './bulk-insert.js';
import { mulberry32 } from './generate-catalogue.js';

export type OrderScale = {
  orders: number;
  /** Days of trade, ending on `now`. */
  days: number;
  now: Date;
  vitals: number;
  logs: number;
  seed?: number;
};

/** What was written, for the bench's log and the generator's test. */
export type GeneratedTrade = {
  orders: number;
  paid: number;
  lines: number;
  refunds: number;
  returns: number;
  vitals: number;
  logs: number;
};

const DAY_MS = 86_400_000;
/** Orders per batch written: the rows of one batch are built, written and let go. */
const BATCH = 5_000;
/** The products most orders are of: the first of the catalogue, the earlier ones sold more (a long tail). */
const POOL = 600;
const CUSTOMERS = 40_000;
const SHIPPING: Record<string, number> = { pkr: 25_000, usd: 1_500 };
const COD_FEE = 10_000;
/** What a US dollar of the catalogue's prices costs in rupees, rounded to whole rupees. */
const PKR_PER_USD = 280;
const CODE = { text: 'EID10', percent: 10 };
const SALE = { id: 'bench-eid', name: 'Eid', percent: 20 };
/** Shoppers buy the middle sizes most. */
const SIZE_WEIGHT: Record<string, number> = { XS: 1, S: 3, M: 5, L: 5, XL: 3, XXL: 1 };

type PoolProduct = { id: string; title: string; priceMinor: number; sizes: string[]; colours: string[] };

function jsonList(value: unknown): string[] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

async function productPool(db: Kysely<Database>): Promise<PoolProduct[]> {
  const rows = await db
    .selectFrom('products')
    .select(['id', 'title', 'price_minor', 'sizes', 'colors'])
    .orderBy('id')
    .limit(POOL)
    .execute();
  if (rows.length === 0) throw new Error('generate the catalogue first: orders are of its products');
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    priceMinor: Number(r.price_minor),
    sizes: jsonList(r.sizes),
    colours: jsonList(r.colors),
  }));
}

const iso = (ms: number) => new Date(ms).toISOString();

function weighted<T>(rand: () => number, items: ReadonlyArray<readonly [T, number]>): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = rand() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return (items[items.length - 1] as readonly [T, number])[0];
}

/** An order's instant: later days more likely (the shop grows), evenings busier than nights. */
function orderInstant(rand: () => number, scale: OrderScale): number {
  const startOfToday = Math.floor(scale.now.getTime() / DAY_MS) * DAY_MS;
  const daysAgo = Math.floor(scale.days * rand() ** 1.4);
  const hour = weighted(
    rand,
    Array.from({ length: 24 }, (_, h) => [h, h < 7 ? 1 : h < 17 ? 4 : 6] as const),
  );
  const at = startOfToday - daysAgo * DAY_MS + hour * 3_600_000 + Math.floor(rand() * 3_600_000);
  // Today's orders only up to now.
  return Math.min(at, scale.now.getTime() - Math.floor(rand() * 3_600_000));
}

type Status = 'pending' | 'processing' | 'paid' | 'payment_failed' | 'expired';

/**
 * Writes the trade. The catalogue (generateCatalogue) must be there already; orders take line ids after
 * the table's highest, so it may run on a store that has orders.
 */
export async function generateTrade(
  db: Kysely<Database>,
  engine: BenchEngine,
  scale: OrderScale,
): Promise<GeneratedTrade> {
  const rand = mulberry32(scale.seed ?? 44);
  const pool = await productPool(db);
  const counts: GeneratedTrade = {
    orders: 0,
    paid: 0,
    lines: 0,
    refunds: 0,
    returns: 0,
    vitals: 0,
    logs: 0,
  };
  const nowMs = scale.now.getTime();
  await db.transaction().execute(async (trx) => {
    const top = await trx
      .selectFrom('order_lines')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    let lineId = Number(top?.max ?? 0);
    const numbers = await trx
      .selectFrom('orders')
      .select((eb) => eb.fn.max('number').as('max'))
      .executeTakeFirst();
    let number = Number(numbers?.max ?? 1000);
    for (let start = 0; start < scale.orders; start += BATCH) {
      const orders: BulkRow[] = [];
      const lines: BulkRow[] = [];
      const refunds: BulkRow[] = [];
      const returns: BulkRow[] = [];
      const returnLines: BulkRow[] = [];
      for (let i = start; i < Math.min(scale.orders, start + BATCH); i++) {
        const id = `ord_bench${String(i).padStart(7, '0')}`;
        number += 1;
        const created = orderInstant(rand, scale);
        const currency = rand() < 0.82 ? 'pkr' : 'usd';
        const method =
          currency === 'usd'
            ? 'card'
            : weighted(rand, [
                ['card', 45],
                ['cash_on_delivery', 40],
                ['bank_transfer', 15],
              ] as const);
        // How long the money takes: a card at once, a transfer a day or two, cash when delivered.
        const paidAfter =
          method === 'card'
            ? 60_000
            : method === 'bank_transfer'
              ? 2 * DAY_MS * rand()
              : DAY_MS * (2 + 4 * rand());
        let status: Status = weighted(rand, [
          ['paid', 90],
          ['expired', 5],
          ['payment_failed', method === 'card' ? 2 : 4],
        ] as const);
        let paidAt: number | null = status === 'paid' ? created + Math.floor(paidAfter) : null;
        if (paidAt !== null && paidAt > nowMs) {
          // Not yet paid: a transfer awaited, cash on its way (confirmed), a card still at Stripe.
          paidAt = null;
          status = method === 'cash_on_delivery' ? 'processing' : 'pending';
        }
        const lineCount = weighted(rand, [
          [1, 55],
          [2, 28],
          [3, 12],
          [4, 5],
        ] as const);
        const withCode = rand() < 0.1;
        const orderLines: Array<{
          id: number;
          quantity: number;
          unit: number;
          total: number;
          product: PoolProduct;
          colour: string | null;
          size: string | null;
        }> = [];
        let subtotal = 0;
        let codeOff = 0;
        let salesOff = 0;
        for (let l = 0; l < lineCount; l++) {
          const product = pool[Math.floor(pool.length * rand() ** 2)] as PoolProduct;
          const size =
            product.sizes.length > 0
              ? weighted(
                  rand,
                  product.sizes.map((s) => [s, SIZE_WEIGHT[s] ?? 1] as const),
                )
              : null;
          const colour =
            product.colours.length > 0
              ? (product.colours[Math.floor(rand() * product.colours.length)] as string)
              : null;
          const quantity = weighted(rand, [
            [1, 80],
            [2, 15],
            [3, 5],
          ] as const);
          const regular =
            currency === 'pkr'
              ? Math.round((product.priceMinor * PKR_PER_USD) / 100) * 100
              : product.priceMinor;
          const onSale = rand() < 0.2;
          const unit = onSale ? regular - Math.floor((regular * SALE.percent) / 100) : regular;
          const gross = unit * quantity;
          const share = withCode ? Math.floor((gross * CODE.percent) / 100) : 0;
          lineId += 1;
          subtotal += gross;
          codeOff += share;
          salesOff += (regular - unit) * quantity;
          orderLines.push({ id: lineId, quantity, unit, total: gross - share, product, colour, size });
          lines.push({
            id: lineId,
            order_id: id,
            product_id: product.id,
            title: product.title,
            colour,
            size,
            quantity,
            unit_price_minor: unit,
            line_total_minor: gross - share,
            image_url: null,
            refunded_quantity: 0,
            regular_unit_price_minor: regular,
            discount_minor: share,
            sale_id: onSale ? SALE.id : null,
            sale_name: onSale ? SALE.name : null,
          });
        }
        const fee = method === 'cash_on_delivery' ? COD_FEE : 0;
        const total = subtotal - codeOff + (SHIPPING[currency] ?? 0) + fee;
        const customer = Math.floor(CUSTOMERS * rand() ** 1.5);
        // Some shoppers type their address with capitals or spaces: the same customer for the dashboard.
        const email = rand() < 0.05 ? ` Customer${customer}@Example.com ` : `customer${customer}@example.com`;
        const delivered = paidAt !== null && (method === 'cash_on_delivery' || nowMs - paidAt > 5 * DAY_MS);
        const shipped = paidAt !== null && nowMs - paidAt > 2 * DAY_MS;
        const shippedAt =
          paidAt === null ? null : method === 'cash_on_delivery' ? created + DAY_MS : paidAt + DAY_MS;
        const refundedLine = { lineIndex: -1, quantity: 0 };
        let refundedMinor = 0;
        if (paidAt !== null) {
          counts.paid += 1;
          const roll = rand();
          if (roll < 0.05) {
            // A refund: of one line whole, or an amount; succeeded mostly, a few failed or still pending.
            const refundStatus = weighted(rand, [
              ['succeeded', 95],
              ['failed', 3],
              ['pending', 2],
            ] as const);
            const byLine = rand() < 0.6;
            const lineIndex = Math.floor(rand() * orderLines.length);
            const line = orderLines[lineIndex] as (typeof orderLines)[number];
            const amount = byLine ? line.total : Math.max(1, Math.floor(total * 0.2));
            const at = Math.min(nowMs, paidAt + Math.floor(DAY_MS * (1 + 20 * rand())));
            if (amount > 0) {
              if (refundStatus !== 'failed') refundedMinor += amount;
              if (byLine && refundStatus !== 'failed') {
                refundedLine.lineIndex = lineIndex;
                refundedLine.quantity = line.quantity;
              }
              refunds.push(
                refundRow(
                  `ref_${id}`,
                  id,
                  amount,
                  currency,
                  refundStatus,
                  method,
                  at,
                  byLine ? [{ lineId: line.id, quantity: line.quantity }] : [],
                  null,
                ),
              );
              counts.refunds += 1;
            }
          } else if (roll < 0.08 && delivered) {
            // A return of one unit of a line: most closed, some still on their way, a few declined.
            const returnStatus = weighted(rand, [
              ['closed', 60],
              ['requested', 10],
              ['approved', 10],
              ['received', 5],
              ['declined', 10],
              ['cancelled', 5],
            ] as const);
            const lineIndex = Math.floor(rand() * orderLines.length);
            const line = orderLines[lineIndex] as (typeof orderLines)[number];
            const exchange = rand() < 0.3 && line.size !== null;
            const returnId = `ret_${id}`;
            const at = Math.min(nowMs, (shippedAt ?? paidAt) + Math.floor(DAY_MS * (3 + 10 * rand())));
            const closedRefund = returnStatus === 'closed' && !exchange;
            // A unit back at what it was charged: its price less its share of the code.
            const unitBack = Math.floor(line.total / line.quantity);
            const otherSize = line.product.sizes.find((s) => s !== line.size) ?? line.size;
            returns.push({
              id: returnId,
              order_id: id,
              status: returnStatus,
              reason: exchange
                ? 'too_small'
                : weighted(rand, [
                    ['too_big', 3],
                    ['not_as_pictured', 2],
                    ['changed_mind', 3],
                    ['damaged', 1],
                  ] as const),
              reason_text: null,
              resolution: exchange ? 'exchange' : 'refund',
              decline_reason: returnStatus === 'declined' ? 'Worn and washed' : null,
              currency,
              refunded_minor: closedRefund ? unitBack : null,
              created_at: iso(at),
              updated_at: iso(at),
              approved_at: ['approved', 'received', 'closed'].includes(returnStatus) ? iso(at) : null,
              received_at: ['received', 'closed'].includes(returnStatus) ? iso(at) : null,
              closed_at: returnStatus === 'closed' ? iso(at) : null,
            });
            returnLines.push({
              return_id: returnId,
              order_line_id: line.id,
              quantity: 1,
              exchange_colour: exchange ? (line.colour === null ? '' : colourKey(line.colour)) : null,
              exchange_size: exchange ? otherSize : null,
            });
            if (closedRefund) {
              refundedMinor += unitBack;
              refundedLine.lineIndex = lineIndex;
              refundedLine.quantity = 1;
              refunds.push(
                refundRow(
                  `ref_${id}`,
                  id,
                  unitBack,
                  currency,
                  'succeeded',
                  method,
                  at,
                  [{ lineId: line.id, quantity: 1 }],
                  returnId,
                ),
              );
              counts.refunds += 1;
            }
            counts.returns += 1;
          }
        }
        if (refundedLine.lineIndex >= 0) {
          const line = lines[lines.length - orderLines.length + refundedLine.lineIndex] as BulkRow;
          line.refunded_quantity = refundedLine.quantity;
        }
        const fulfilment =
          status === 'payment_failed' && method === 'cash_on_delivery'
            ? 'cancelled'
            : delivered
              ? 'delivered'
              : shipped
                ? 'shipped'
                : 'unfulfilled';
        orders.push({
          id,
          number,
          status,
          payment_mode: 'demo',
          currency,
          subtotal_minor: subtotal,
          total_minor: total,
          customer_email: email,
          customer_name: `Customer ${customer}`,
          shipping_address: JSON.stringify({ line1: `${customer} Mall Road`, city: 'Lahore', country: 'PK' }),
          billing_address: null,
          stripe_session_id: method === 'card' ? `demo_${id}` : null,
          created_at: iso(created),
          updated_at: iso(paidAt ?? created),
          paid_at: paidAt === null ? null : iso(paidAt),
          fulfilment,
          shipped_at:
            fulfilment === 'delivered' || fulfilment === 'shipped' ? iso(shippedAt ?? created) : null,
          delivered_at: fulfilment === 'delivered' ? iso(paidAt ?? created) : null,
          refunded_minor: refundedMinor,
          access_token: `bench${String(i).padStart(10, '0')}`,
          discount_minor: codeOff,
          sales_minor: salesOff,
          discount_code: withCode ? CODE.text : null,
          payment_method: method,
          method_fee_minor: fee,
          phone: method === 'card' ? null : `+92300${String(1_000_000 + customer).slice(-7)}`,
          confirmed_at:
            method === 'cash_on_delivery' && status !== 'expired' ? iso(created + 3_600_000) : null,
          confirmed_by: method === 'cash_on_delivery' && status !== 'expired' ? 'shopper' : null,
          collected_minor: method === 'cash_on_delivery' && paidAt !== null ? total : null,
          collected_at: method === 'cash_on_delivery' && paidAt !== null ? iso(paidAt) : null,
          transfer_reference: method === 'bank_transfer' && paidAt !== null ? `TRF${number}` : null,
          transfer_received_on:
            method === 'bank_transfer' && paidAt !== null ? iso(paidAt).slice(0, 10) : null,
          returned_reason:
            status === 'payment_failed' && method === 'cash_on_delivery' ? 'Refused at the door' : null,
          returned_restocked: status === 'payment_failed' && method === 'cash_on_delivery' ? 1 : null,
          returned_at:
            status === 'payment_failed' && method === 'cash_on_delivery' ? iso(created + 3 * DAY_MS) : null,
        });
        counts.orders += 1;
      }
      await insertRows(trx, engine, 'orders', orders);
      await insertRows(trx, engine, 'order_lines', lines);
      await insertRows(trx, engine, 'refunds', refunds);
      await insertRows(trx, engine, 'returns', returns);
      await insertRows(trx, engine, 'return_lines', returnLines);
      counts.lines += lines.length;
    }
    if (engine === 'postgres' && lineId > 0)
      // The lines were given their ids: the identity must start after them for the store's own inserts.
      await sql`SELECT setval(pg_get_serial_sequence('order_lines', 'id'), ${lineId})`.execute(trx);
    counts.vitals = await generateVitals(trx, engine, scale, rand);
    counts.logs = await generateLogs(trx, engine, scale, rand);
  });
  return counts;
}

function refundRow(
  id: string,
  orderId: string,
  amount: number,
  currency: string,
  status: 'succeeded' | 'failed' | 'pending',
  method: string,
  at: number,
  lines: Array<{ lineId: number; quantity: number }>,
  returnId: string | null,
): BulkRow {
  const manual = method !== 'card';
  return {
    id,
    order_id: orderId,
    amount_minor: amount,
    currency,
    reason: returnId ? 'Return' : 'Customer asked',
    lines: JSON.stringify(lines),
    status: manual && status === 'pending' ? 'succeeded' : status,
    provider: 'demo',
    provider_refund_id: null,
    failure: status === 'failed' && !manual ? 'card_declined' : null,
    admin_email: 'owner@shop.example',
    created_at: iso(at),
    updated_at: iso(at),
    method: manual ? 'manual' : 'provider',
    paid_via: manual ? 'bank transfer' : null,
    note: null,
    return_id: returnId,
  };
}

const ROUTES = ['/', '/product/:slug', '/products', '/cart', '/checkout', '/order/:id', '/search'];
/** A typical value of each metric and how widely real users spread around it (lognormal). */
const VITALS = [
  ['LCP', 1900, 0.5],
  ['FCP', 1200, 0.45],
  ['INP', 140, 0.7],
  ['CLS', 0.05, 1.0],
  ['TTFB', 450, 0.6],
] as const;

function normal(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

async function generateVitals(
  db: Kysely<Database>,
  engine: BenchEngine,
  scale: OrderScale,
  rand: () => number,
): Promise<number> {
  for (let start = 0; start < scale.vitals; start += BATCH * 4) {
    const rows: BulkRow[] = [];
    for (let i = start; i < Math.min(scale.vitals, start + BATCH * 4); i++) {
      const [metric, median, spread] = VITALS[i % VITALS.length] as (typeof VITALS)[number];
      const value = median * Math.exp(spread * normal(rand));
      rows.push({
        time: iso(orderInstant(rand, scale)),
        metric,
        value: metric === 'CLS' ? Math.round(value * 10_000) / 10_000 : Math.round(value),
        route: ROUTES[Math.floor(rand() * ROUTES.length)] as string,
        navigation_type: rand() < 0.8 ? 'navigate' : 'reload',
      });
    }
    await insertRows(db, engine, 'web_vitals', rows);
  }
  return scale.vitals;
}

const LOG_SOURCES = ['checkout', 'stripe', 'admin', 'product', 'client', 'server', 'email'];

async function generateLogs(
  db: Kysely<Database>,
  engine: BenchEngine,
  scale: OrderScale,
  rand: () => number,
): Promise<number> {
  for (let start = 0; start < scale.logs; start += BATCH * 4) {
    const rows: BulkRow[] = [];
    for (let i = start; i < Math.min(scale.logs, start + BATCH * 4); i++) {
      const level = weighted(rand, [
        ['info', 70],
        ['warning', 20],
        ['error', 10],
      ] as const);
      const at = orderInstant(rand, scale);
      // Errors come in bursts the log folds into one row (repeat_count).
      const repeats = level === 'error' && rand() < 0.2 ? 2 + Math.floor(rand() * 20) : 1;
      const source = LOG_SOURCES[Math.floor(rand() * LOG_SOURCES.length)] as string;
      rows.push({
        time: iso(at),
        level,
        source,
        message: `${source} ${level} ${i % 37}`,
        details: '{}',
        request_id: `req-${i}`,
        repeat_count: repeats,
        last_time: iso(at + (repeats - 1) * 100),
      });
    }
    await insertRows(db, engine, 'logs', rows);
  }
  return scale.logs;
}
