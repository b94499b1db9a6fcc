import type { DbOrTx } from '../../db/database.js';
import { colourOptionsOf } from '../../db/json-columns.js';
import { colourKey, variantLabel } from '../../shared/colours.js';
import { minorToMajorString } from '../../shared/money.js';
import { orderCharges, struckRegularPrice } from '../../shared/order-charges.js';
import { paymentStep } from '../../shared/payment-methods.js';
import { RETURN_STATUSES_COUNTED } from '../../shared/returns.js';
import { postalAddressOf } from './postal-address.js';

export const CSV_COLUMNS = [
  'order_number',
  'order_id',
  'paid_at',
  'status',
  'fulfilment',
  'customer_email',
  'customer_name',
  'ship_to_country',
  'currency',
  'product_id',
  'title',
  'size',
  'quantity',
  'unit_price',
  'line_total',
  'refunded_quantity',
  'order_subtotal',
  'order_total',
  'order_refunded',
  // Added last, so the columns before it keep their places in the spreadsheets already reading them.
  /** The colour's name as bought; empty for a product without colours (size stays in its own column). */
  'colour',
  // Sales and codes (decision 0037), added last for the same reason. unit_price is the price charged per
  // unit (the sale price), line_total what the line was charged after its share of the code.
  /** The unit price before the sale; empty when no sale applied (and on lines from before sales). */
  'regular_unit_price',
  /** The sale's name, when one applied. */
  'sale',
  /** The order's code, as the shopper entered it. */
  'discount_code',
  /** The line's share of the code's discount. */
  'line_discount',
  // Payment methods (decision 0038), last for the same reason.
  /** card, cash_on_delivery or bank_transfer. */
  'payment_method',
  /** Where the order is for its method (paymentStep): collected, returned, shipped, … */
  'payment_step',
  // Returns and exchanges (decision 0039), last for the same reason. A return counts unless it was declined
  // or cancelled (RETURN_STATUSES_COUNTED); several of one line are joined with "; ", oldest first.
  /** Units of the line in returns that count, refunds and exchanges alike. */
  'returned_quantity',
  /** What the line is exchanged for: "Teal / L ×1". */
  'exchange_to',
  /** The replacement's shipment once sent: "TCS 123456". */
  'exchange_tracking',
  /** The exchanges' price difference, signed: positive the shopper pays it, negative the shop gives it back. */
  'exchange_difference',
] as const;

/** Exact decimal money that may be negative, written as a number, never taken for a formula. */
type SignedAmount = { signedAmount: string };
export type CsvValue = string | number | null | SignedAmount;

/**
 * One CSV field. Quoted when it holds a separator, a quote or a line break; a text that a spreadsheet
 * would run as a formula (=, +, -, @, tab, CR at its start) gets a leading apostrophe, so a product title
 * or a shopper's name cannot become a formula in the accountant's spreadsheet.
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  // A minus before digits is a negative amount; anything else from such a value is treated as text.
  if (typeof value === 'object' && /^-?\d+(\.\d+)?$/.test(value.signedAmount)) return value.signedAmount;
  let text = typeof value === 'object' ? value.signedAmount : String(value);
  if (typeof value !== 'number' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

const BATCH = 200;

/**
 * The orders paid in [from, to) and their lines, one row per line, a batch of orders at a time (keyset on
 * paid_at and id), so a year of orders never sits in memory whole. Money is exact decimal text with the
 * currency beside it; refunds count what was refunded in the end (pending ones are not yet money back).
 */
export async function* orderCsvRows(db: DbOrTx, range: { from: string; to: string }): AsyncGenerator<string> {
  yield csvRow([...CSV_COLUMNS]);
  let after: { paidAt: string; id: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom('orders')
      .select([
        'id',
        'number',
        'paid_at',
        'status',
        'fulfilment',
        'customer_email',
        'customer_name',
        'shipping_address',
        'currency',
        'subtotal_minor',
        'total_minor',
        'discount_minor',
        'discount_code',
        'payment_method',
      ])
      .where('paid_at', '>=', range.from)
      .where('paid_at', '<', range.to);
    if (after) {
      const { paidAt, id } = after;
      query = query.where((eb) =>
        eb.or([eb('paid_at', '>', paidAt), eb.and([eb('paid_at', '=', paidAt), eb('id', '>', id)])]),
      );
    }
    const orders = await query.orderBy('paid_at').orderBy('id').limit(BATCH).execute();
    if (orders.length === 0) return;
    const ids = orders.map((o) => o.id);
    const [lines, refunds, returned] = await Promise.all([
      db.selectFrom('order_lines').selectAll().where('order_id', 'in', ids).orderBy('id').execute(),
      db
        .selectFrom('refunds')
        .select(['order_id', 'amount_minor'])
        .where('order_id', 'in', ids)
        .where('status', '=', 'succeeded')
        .execute(),
      returnedLines(db, ids),
    ]);
    for (const o of orders) {
      const money = (minor: number) => minorToMajorString(minor, o.currency);
      const refunded = refunds.filter((r) => r.order_id === o.id).reduce((s, r) => s + r.amount_minor, 0);
      const country = postalAddressOf(o.shipping_address)?.country ?? null;
      const own = lines.filter((line) => line.order_id === o.id);
      const charges = orderCharges(
        {
          subtotalMinor: o.subtotal_minor,
          paidMinor: o.total_minor ?? o.subtotal_minor,
          discountMinor: o.discount_minor,
          discountCode: o.discount_code,
        },
        own.map((l) => ({ lineTotalMinor: l.line_total_minor, discountMinor: l.discount_minor })),
      );
      for (const l of own) {
        const regular = struckRegularPrice({
          regularUnitPriceMinor: l.regular_unit_price_minor,
          unitPriceMinor: l.unit_price_minor,
        });
        yield csvRow([
          o.number,
          o.id,
          o.paid_at,
          o.status,
          o.fulfilment,
          o.customer_email,
          o.customer_name,
          country,
          o.currency.toUpperCase(),
          l.product_id,
          l.title,
          l.size,
          l.quantity,
          money(l.unit_price_minor),
          money(l.line_total_minor),
          l.refunded_quantity,
          money(charges.subtotalMinor),
          money(o.total_minor ?? o.subtotal_minor),
          money(refunded),
          l.colour,
          regular === null ? null : money(regular),
          regular === null ? null : l.sale_name,
          o.discount_code,
          money(l.discount_minor),
          o.payment_method,
          paymentStep(o.payment_method, o.status, o.fulfilment),
          ...returnCells(
            returned.filter((r) => r.order_line_id === l.id),
            o.currency,
          ),
        ]);
      }
    }
    const last = orders.at(-1);
    if (!last?.paid_at || orders.length < BATCH) return;
    after = { paidAt: last.paid_at, id: last.id };
  }
}

/** The lines of the batch's returns that count, oldest return first, with the replacement's colour names. */
function returnedLines(db: DbOrTx, orderIds: string[]) {
  return db
    .selectFrom('return_lines as rl')
    .innerJoin('returns as r', 'r.id', 'rl.return_id')
    .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
    .leftJoin('products as p', 'p.id', 'ol.product_id')
    .select([
      'rl.order_line_id',
      'rl.quantity',
      'rl.exchange_colour',
      'rl.exchange_size',
      'rl.difference_minor',
      'r.resolution',
      'r.exchange_carrier',
      'r.exchange_tracking',
      'p.colour_options',
    ])
    .where('r.order_id', 'in', orderIds)
    .where('r.status', 'in', [...RETURN_STATUSES_COUNTED])
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
}

type ReturnedLine = Awaited<ReturnType<typeof returnedLines>>[number];

/** returned_quantity, exchange_to, exchange_tracking, exchange_difference of one order line. */
function returnCells(returned: ReturnedLine[], currency: string): CsvValue[] {
  const exchanges = returned.filter((r) => r.resolution === 'exchange');
  const colourName = (r: ReturnedLine) =>
    r.exchange_colour
      ? (colourOptionsOf(r.colour_options ?? '[]').find((c) => colourKey(c.name) === r.exchange_colour)
          ?.name ?? r.exchange_colour)
      : null;
  const joined = (texts: string[]) => (texts.length > 0 ? texts.join('; ') : null);
  return [
    returned.reduce((s, r) => s + r.quantity, 0),
    joined(exchanges.map((r) => `${variantLabel(colourName(r), r.exchange_size)} ×${r.quantity}`)),
    joined(
      exchanges.flatMap((r) =>
        r.exchange_carrier && r.exchange_tracking ? [`${r.exchange_carrier} ${r.exchange_tracking}`] : [],
      ),
    ),
    exchanges.length === 0
      ? null
      : {
          signedAmount: minorToMajorString(
            exchanges.reduce((s, r) => s + r.difference_minor, 0),
            currency,
          ),
        },
  ];
}
