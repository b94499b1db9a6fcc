import type { DbOrTx } from '../../db/database.js';
import { colourOptionsOf, parseJsonArray } from '../../db/json-columns.js';
import { ALL_COLOURS, colourKey } from '../../shared/colours.js';
import { RETURN_STATUSES_COUNTED, type ReturnOption, type ReturnSettings } from '../../shared/returns.js';
import { sizeKey, sortSizes } from '../../shared/sizes.js';
import type { OrderPageOrder } from './order-page-access.js';
import { fittedReplacements } from './return-fit.js';

const DAY_MS = 86_400_000;
/** Said after a refusal the shopper meets as an error (the order page adds the shop's own contact to its reasons). */
export const CONTACT = 'Please contact the shop.';

/**
 * Whether the order may be returned online at all, and until when (decision 0039): paid, sent, and within
 * the owner's window after delivery (or after shipping when delivery was never recorded).
 */
export function orderWindow(
  order: Pick<OrderPageOrder, 'status' | 'fulfilment' | 'shipped_at' | 'delivered_at'>,
  settings: ReturnSettings,
  now: Date,
): { eligible: boolean; reasonIfNot: string | null; windowEndsAt: string | null } {
  const refuse = (reason: string) => ({ eligible: false, reasonIfNot: reason, windowEndsAt: null });
  if (settings.windowDays === 0) return refuse('This shop does not take returns online.');
  if (order.status !== 'paid' || order.fulfilment === 'cancelled')
    return refuse('This order cannot be returned online.');
  const from = order.delivered_at ?? (order.fulfilment !== 'unfulfilled' ? order.shipped_at : null);
  if (from === null) return refuse('This order has not been sent yet, so there is nothing to return.');
  const ends = new Date(Date.parse(from) + settings.windowDays * DAY_MS);
  if (now.getTime() > ends.getTime())
    return {
      eligible: false,
      reasonIfNot: `The ${settings.windowDays}-day return window of this order ended on ${ends.toISOString().slice(0, 10)}.`,
      windowEndsAt: ends.toISOString(),
    };
  return { eligible: true, reasonIfNot: null, windowEndsAt: ends.toISOString() };
}

export type ReturnableLine = {
  lineId: number;
  productId: string;
  title: string;
  colour: string | null;
  size: string | null;
  quantity: number;
  returnable: number;
  finalSale: boolean;
  /** The bought unit's regular (list) price, what a replacement's price is set against (decision 0039). */
  boughtUnitMinor: number;
  /** The order's currency. */
  currency: string;
  /**
   * The product as it is now, with its regular price and each colour's own price (null: the product's);
   * null once deleted (then no exchange is offered).
   */
  product: {
    sizes: string[];
    colours: Array<{ key: string; name: string; priceMinor: number | null }>;
    priceMinor: number;
    currency: string;
  } | null;
};

/**
 * What one unit of a replacement costs more (> 0) or less (< 0) than the unit bought (decision 0039): the
 * colour's own regular price, else the product's, now, against the bought line's regular unit price. Null
 * when the product is priced in another currency than the order was, which no exchange can settle.
 */
export function unitDifference(
  line: Pick<ReturnableLine, 'boughtUnitMinor' | 'currency' | 'product'>,
  colour: string,
): number | null {
  const product = line.product;
  if (!product || product.currency !== line.currency) return null;
  const own = product.colours.find((c) => c.key === colour)?.priceMinor ?? null;
  return (own ?? product.priceMinor) - line.boughtUnitMinor;
}

/**
 * Each line of the order with what may still be returned: bought, less what is in returns that still count
 * (all but declined and cancelled ones), less what the owner refunded outside returns. A return closed with a
 * refund raised refunded_quantity too, so only the refunded units beyond those are taken off a second time.
 */
export async function returnableLines(
  db: DbOrTx,
  orderId: string,
  settings: ReturnSettings,
): Promise<ReturnableLine[]> {
  const lines = await db
    .selectFrom('order_lines as ol')
    .innerJoin('orders as o', 'o.id', 'ol.order_id')
    .leftJoin('products as p', 'p.id', 'ol.product_id')
    .select([
      'o.currency as order_currency',
      'ol.unit_price_minor',
      'ol.regular_unit_price_minor',
      'p.price_minor',
      'p.currency',
      'ol.id',
      'ol.product_id',
      'ol.title',
      'ol.colour',
      'ol.size',
      'ol.quantity',
      'ol.refunded_quantity',
      'p.id as live_product',
      'p.sizes',
      'p.tags',
      'p.colour_options',
    ])
    .where('ol.order_id', '=', orderId)
    .orderBy('ol.id')
    .execute();
  const counted = await db
    .selectFrom('return_lines as rl')
    .innerJoin('returns as r', 'r.id', 'rl.return_id')
    .select(['rl.order_line_id', 'rl.quantity', 'r.status', 'r.resolution'])
    .where('r.order_id', '=', orderId)
    .where('r.status', 'in', [...RETURN_STATUSES_COUNTED])
    .execute();
  const finalTags = new Set(settings.finalSaleTags.map((t) => t.toLowerCase()));
  return lines.map((l) => {
    const inReturns = counted.filter((c) => c.order_line_id === l.id);
    const returned = inReturns.reduce((s, c) => s + c.quantity, 0);
    const refundedByReturns = inReturns
      .filter((c) => c.status === 'closed' && c.resolution === 'refund')
      .reduce((s, c) => s + c.quantity, 0);
    const refundedElsewhere = Math.max(0, l.refunded_quantity - refundedByReturns);
    const tags = l.tags === null ? [] : parseJsonArray(l.tags).map((t) => t.trim().toLowerCase());
    const finalSale = tags.some((t) => finalTags.has(t));
    const left = Math.max(0, l.quantity - returned - refundedElsewhere);
    return {
      lineId: l.id,
      productId: l.product_id,
      title: l.title,
      colour: l.colour,
      size: l.size,
      quantity: l.quantity,
      returnable: finalSale ? 0 : left,
      finalSale,
      boughtUnitMinor: l.regular_unit_price_minor ?? l.unit_price_minor,
      currency: l.order_currency,
      product:
        l.live_product === null
          ? null
          : {
              sizes: sortSizes(parseJsonArray(l.sizes ?? '[]')),
              colours: colourOptionsOf(l.colour_options ?? '[]').map((c) => ({
                key: colourKey(c.name),
                name: c.name,
                priceMinor: c.priceMinor,
              })),
              priceMinor: l.price_minor ?? 0,
              currency: l.currency ?? l.order_currency,
            },
    };
  });
}

/** What can be had of each colour and size of a product: the colour's own count, else all colours', else untracked. */
export async function stockOf(db: DbOrTx, productId: string) {
  const rows = await db
    .selectFrom('size_stock')
    .select(['colour', 'size', 'on_hand', 'reserved'])
    .where('product_id', '=', productId)
    .execute();
  return (colour: string, size: string): number | null => {
    const same = rows.filter((r) => sizeKey(r.size) === sizeKey(size));
    const row = same.find((r) => r.colour === colour) ?? same.find((r) => r.colour === ALL_COLOURS);
    return row ? Math.max(0, row.on_hand - row.reserved) : null;
  };
}

const MAX_ALTERNATIVES = 100;

/**
 * The replacements a line may have (decision 0039): the next size up (too small) and down (too big) of the
 * same colour by the product's size order, skipping sizes none are left of; and every other size and colour
 * there is, each with its price difference per unit. A line bought with the fit finder's measurements is offered the size they fit first, when it lies
 * that way and is in stock (return-fit.ts).
 */
export async function replacementOptions(
  db: DbOrTx,
  line: ReturnableLine,
): Promise<{
  nextSizes: { too_small: ReturnOption | null; too_big: ReturnOption | null };
  alternatives: ReturnOption[];
}> {
  const none = { nextSizes: { too_small: null, too_big: null }, alternatives: [] };
  if (!line.product || line.size === null || line.product.sizes.length === 0) return none;
  // Priced in another currency now: no exchange can be settled against what was paid.
  if (unitDifference(line, ALL_COLOURS) === null) return none;
  const { sizes, colours } = line.product;
  const available = await stockOf(db, line.productId);
  const boughtKey = line.colour === null ? ALL_COLOURS : colourKey(line.colour);
  const colourName = (key: string) => colours.find((c) => c.key === key)?.name ?? null;
  const option = (colour: string, size: string): ReturnOption | null => {
    const left = available(colour, size);
    if (left !== null && left <= 0) return null;
    return {
      size,
      colour: colour === ALL_COLOURS ? null : colour,
      colourName: colourName(colour),
      available: left,
      differenceMinor: unitDifference(line, colour) ?? 0,
    };
  };
  const at = sizes.findIndex((s) => sizeKey(s) === sizeKey(line.size ?? ''));
  const sameColour = colours.length === 0 || colours.some((c) => c.key === boughtKey) ? boughtKey : null;
  const walk = (step: 1 | -1): ReturnOption | null => {
    if (at < 0 || sameColour === null) return null;
    for (let i = at + step; i >= 0 && i < sizes.length; i += step) {
      const found = option(sameColour, sizes[i] ?? '');
      if (found) return found;
    }
    return null;
  };
  const alternatives: ReturnOption[] = [];
  for (const colour of colours.length === 0 ? [ALL_COLOURS] : colours.map((c) => c.key)) {
    for (const size of sizes) {
      if (colour === boughtKey && sizeKey(size) === sizeKey(line.size)) continue;
      const found = option(colour, size);
      if (found && alternatives.length < MAX_ALTERNATIVES) alternatives.push(found);
    }
  }
  // The fit finder's measurements, when the line has them, go before the walk (decision 0040).
  const fitted =
    at < 0 || sameColour === null
      ? null
      : await fittedReplacements(db, line, (size) => option(sameColour, size));
  return {
    nextSizes: { too_small: fitted?.too_small ?? walk(1), too_big: fitted?.too_big ?? walk(-1) },
    alternatives,
  };
}
