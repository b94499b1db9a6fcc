/**
 * Sales and discount codes, priced (decision 0037): the one implementation of the rules, used by the
 * storefront's prices, the quote, the order snapshot, Stripe, demo mode and the tests. Every amount is an
 * integer in minor units; nothing here reads a clock or a database.
 */

import { foldForSearch } from './search-fold.js';

/** What a discount covers: every product when neither `products` nor `tags` is given. */
export type DiscountScope = {
  /** Chosen products (ids). */
  products?: string[];
  /** Products with any of these tags (compared as the tag filter compares them: case and accents aside). */
  tags?: string[];
  /** Only these colours of the products above (colour keys, colours.ts colourKey). */
  colours?: string[];
};

export type DiscountValue =
  | { type: 'percent'; percent: number }
  | { type: 'fixed'; amountMinor: number; currency: string }
  | { type: 'free_shipping' };

export type Discount = {
  id: string;
  kind: 'sale' | 'code';
  name: string;
  /** The code as the owner wrote it (matched case-insensitively); null for a sale. */
  code: string | null;
  value: DiscountValue;
  /** A code's reach: the whole order, or the items its scope covers. A sale is always of items. */
  target: 'order' | 'items';
  scope: DiscountScope;
  /** ISO instants (UTC). */
  startsAt: string;
  endsAt: string | null;
  /** Set when the owner ended it early. */
  endedAt: string | null;
  minOrderMinor: number | null;
  /**
   * The minimum's currency: a cart in another is below it, as its amounts cannot be compared. Absent for a
   * discount stored before minimums had one (compared with any cart, as then).
   */
  minOrderCurrency?: string | null;
  maxUses: number | null;
  maxUsesPerEmail: number | null;
  /** Uses held by open checkouts and redeemed by paid orders. */
  uses: number;
  createdAt: string;
};

/** One line to price: what the rules need of the product. */
export type PricedItem = {
  productId: string;
  tags: readonly string[];
  /** colourKey of the line's colour; null for a product without colours. */
  colourKey: string | null;
  /** The regular unit price (the colour's own when it has one). */
  unitPriceMinor: number;
  currency: string;
  quantity: number;
};

/** The sale an item sells at, as a card, a product page and a line show it. */
export type SaleApplied = {
  id: string;
  name: string;
  /** What the sale takes off each unit. */
  unitDiscountMinor: number;
  /** The badge: "−20%", the share of the regular price taken off, rounded (at least 1). */
  percentOff: number;
  endsAt: string | null;
};

export type PricedLine = {
  regularUnitPriceMinor: number;
  /** The unit price at the sale, when one applies: what the line's units are sold at before a code. */
  unitPriceMinor: number;
  sale: SaleApplied | null;
  /** unitPriceMinor × quantity. */
  subtotalMinor: number;
  /** The line's share of the code's discount. */
  codeDiscountMinor: number;
  /** What the line is charged: subtotal less the code's share. */
  totalMinor: number;
};

export type CodeRefusal =
  | 'not_found'
  | 'not_yet_valid'
  | 'expired'
  | 'ended'
  | 'used_up'
  | 'used_by_email'
  | 'minimum_not_reached'
  | 'covers_nothing';

export const CODE_REFUSAL_TEXT: Record<CodeRefusal, string> = {
  not_found: 'This code does not exist. Please check its spelling.',
  not_yet_valid: 'This code is not valid yet.',
  expired: 'This code has expired.',
  ended: 'This code has ended.',
  used_up: 'This code has been used up.',
  used_by_email: 'This code has already been used with this email address.',
  minimum_not_reached: 'Your order has not reached this code’s minimum yet.',
  covers_nothing: 'This code does not cover anything in your cart.',
};

/** The code as matched: case and surrounding spaces do not matter. */
export function codeKey(code: string): string {
  return code.trim().toUpperCase();
}

/** `round(value × percent / 100)`, half up, in integers. */
export function percentOf(valueMinor: number, percent: number): number {
  return Math.floor((valueMinor * percent + 50) / 100);
}

/** Running at `now`: started, not yet at its end, not ended by the owner. */
export function isRunning(d: Pick<Discount, 'startsAt' | 'endsAt' | 'endedAt'>, now: Date): boolean {
  const t = now.getTime();
  return (
    Date.parse(d.startsAt) <= t &&
    (d.endsAt === null || t < Date.parse(d.endsAt)) &&
    (d.endedAt === null || t < Date.parse(d.endedAt))
  );
}

/** Whether a discount's scope covers an item. */
export function covers(
  scope: DiscountScope,
  item: Pick<PricedItem, 'productId' | 'tags' | 'colourKey'>,
): boolean {
  const products = scope.products ?? [];
  const tags = scope.tags ?? [];
  const chosen = products.length > 0 || tags.length > 0;
  if (chosen) {
    const byProduct = products.includes(item.productId);
    // The tag facet's own fold (search-fold.ts), so "Lawn", "ＬＡＷＮ" and " lawn " are one tag here as in
    // the catalogue's tag filter and its On sale count.
    const keys = foldedTags(tags);
    const byTag = foldedTags(item.tags).some((t) => keys.includes(t));
    if (!byProduct && !byTag) return false;
  }
  const colours = scope.colours ?? [];
  return colours.length === 0 || (item.colourKey !== null && colours.includes(item.colourKey));
}

function tagKey(tag: string): string {
  let key = tagKeys.get(tag);
  if (key === undefined) {
    // Remembered per tag: each card read brings its tags as new arrays, but a catalogue has few tags.
    if (tagKeys.size >= 10_000) tagKeys.clear();
    key = foldForSearch(tag).replace(/^ +| +$/g, '');
    tagKeys.set(tag, key);
  }
  return key;
}
const tagKeys = new Map<string, string>();

/**
 * A list of tags folded, kept per list: a sale's tags and a card's are the same arrays for every item a
 * read of cards prices (up to four per card, with its colours), and folding was most of pricing them.
 */
function foldedTags(tags: readonly string[]): readonly string[] {
  let folded = foldedLists.get(tags);
  if (!folded) {
    folded = tags.map(tagKey);
    foldedLists.set(tags, folded);
  }
  return folded;
}
const foldedLists = new WeakMap<readonly string[], readonly string[]>();

/** What a sale takes off one unit of an item: nothing when it is of another currency. */
export function unitDiscount(value: DiscountValue, unitMinor: number, currency: string): number {
  if (value.type === 'percent') return Math.min(unitMinor, percentOf(unitMinor, value.percent));
  if (value.type === 'fixed' && value.currency === currency) return Math.min(unitMinor, value.amountMinor);
  return 0;
}

/**
 * The best running sale for an item: the one that takes most off a unit (ties: the one created first,
 * then the smaller id). Sales never stack.
 */
export function bestSale(
  sales: readonly Discount[],
  item: Pick<PricedItem, 'productId' | 'tags' | 'colourKey' | 'unitPriceMinor' | 'currency'>,
  now: Date,
): SaleApplied | null {
  let best: { sale: Discount; off: number } | null = null;
  for (const sale of sales) {
    if (sale.kind !== 'sale' || !isRunning(sale, now) || !covers(sale.scope, item)) continue;
    const off = unitDiscount(sale.value, item.unitPriceMinor, item.currency);
    if (off <= 0) continue;
    if (
      !best ||
      off > best.off ||
      (off === best.off &&
        (sale.createdAt < best.sale.createdAt ||
          (sale.createdAt === best.sale.createdAt && sale.id < best.sale.id)))
    ) {
      best = { sale, off };
    }
  }
  if (!best) return null;
  return {
    id: best.sale.id,
    name: best.sale.name,
    unitDiscountMinor: best.off,
    percentOff: Math.max(1, Math.round((best.off * 100) / item.unitPriceMinor)),
    endsAt: earliest(best.sale.endsAt, best.sale.endedAt),
  };
}

function earliest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/**
 * Shares `total` among `weights` in proportion, by the largest-remainder method: the shares are integers,
 * never negative, and add up to `total` exactly (ties of remainder: the earlier weight first).
 */
export function shareByWeight(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map((x) => Math.floor(x));
  let left = total - shares.reduce((s, x) => s + x, 0);
  const order = exact
    .map((x, i) => ({ i, rem: x - Math.floor(x) }))
    .sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left--;
  }
  return shares;
}

/** A code's situation beyond the cart: its uses by the shopper's email, when known. */
export type CodeContext = { now: Date; usesByEmail?: number };

/**
 * Why a code cannot apply to these lines now, or null when it can. `lines` are priced at their sales
 * already (their subtotals are what the minimum is of).
 */
export function codeRefusal(
  code: Discount,
  items: readonly PricedItem[],
  subtotals: readonly number[],
  ctx: CodeContext,
): CodeRefusal | null {
  const t = ctx.now.getTime();
  if (code.endedAt !== null && Date.parse(code.endedAt) <= t) return 'ended';
  if (t < Date.parse(code.startsAt)) return 'not_yet_valid';
  if (code.endsAt !== null && Date.parse(code.endsAt) <= t) return 'expired';
  if (code.maxUses !== null && code.uses >= code.maxUses) return 'used_up';
  if (code.maxUsesPerEmail !== null && (ctx.usesByEmail ?? 0) >= code.maxUsesPerEmail) return 'used_by_email';
  const subtotal = subtotals.reduce((s, x) => s + x, 0);
  const currency = items[0]?.currency;
  if (code.minOrderMinor !== null) {
    const otherCurrency = (code.minOrderCurrency ?? currency) !== currency;
    if (otherCurrency || subtotal < code.minOrderMinor) return 'minimum_not_reached';
  }
  if (code.value.type === 'fixed' && code.value.currency !== currency) return 'covers_nothing';
  if (code.target === 'items' && !items.some((item) => covers(code.scope, item))) return 'covers_nothing';
  return null;
}

export type PricedCart = {
  lines: PricedLine[];
  /** Sum of the lines' subtotals (at sale prices). */
  subtotalMinor: number;
  /** What sales took off, over all lines. */
  salesMinor: number;
  /** What the code took off (the sum of the lines' shares). */
  codeDiscountMinor: number;
  /** Sum of the lines' charged totals: subtotal less the code's discount (shipping is not in it). */
  totalMinor: number;
  /** The code gives free shipping. */
  freeShipping: boolean;
  /** The code that applied, or why it did not. */
  code: { applied: Discount } | { refused: CodeRefusal } | null;
};

/**
 * Prices lines of one currency: each at its best running sale, then the code (if any, and if it applies)
 * shared over the lines it covers. `code` is the discount the shopper's code names, or 'not_found'.
 */
export function priceLines(
  items: readonly PricedItem[],
  opts: { sales: readonly Discount[]; code?: Discount | 'not_found' | null } & CodeContext,
): PricedCart {
  const sold = items.map((item) => {
    const sale = bestSale(opts.sales, item, opts.now);
    const unit = item.unitPriceMinor - (sale?.unitDiscountMinor ?? 0);
    return { sale, unit, subtotal: unit * item.quantity };
  });
  const subtotals = sold.map((s) => s.subtotal);
  const subtotalMinor = subtotals.reduce((s, x) => s + x, 0);
  const salesMinor = items.reduce(
    (s, item, i) => s + (item.unitPriceMinor - (sold[i]?.unit ?? 0)) * item.quantity,
    0,
  );

  let shares = items.map(() => 0);
  let freeShipping = false;
  let code: PricedCart['code'] = null;
  if (opts.code === 'not_found') {
    code = { refused: 'not_found' };
  } else if (opts.code) {
    const given = opts.code;
    const refusal = codeRefusal(given, items, subtotals, opts);
    if (refusal) {
      code = { refused: refusal };
    } else {
      code = { applied: given };
      const covered = items.map((item) => given.target === 'order' || covers(given.scope, item));
      const value = given.value;
      if (value.type === 'free_shipping') {
        freeShipping = true;
      } else if (value.type === 'percent') {
        shares = subtotals.map((s, i) => (covered[i] ? Math.min(s, percentOf(s, value.percent)) : 0));
      } else {
        const base = subtotals.map((s, i) => (covered[i] ? s : 0));
        const coveredTotal = base.reduce((s, x) => s + x, 0);
        shares = shareByWeight(Math.min(value.amountMinor, coveredTotal), base);
      }
    }
  }
  const lines = items.map((item, i): PricedLine => {
    const s = sold[i] as (typeof sold)[number];
    const share = shares[i] ?? 0;
    return {
      regularUnitPriceMinor: item.unitPriceMinor,
      unitPriceMinor: s.unit,
      sale: s.sale,
      subtotalMinor: s.subtotal,
      codeDiscountMinor: share,
      totalMinor: s.subtotal - share,
    };
  });
  const codeDiscountMinor = shares.reduce((s, x) => s + x, 0);
  return {
    lines,
    subtotalMinor,
    salesMinor,
    codeDiscountMinor,
    totalMinor: subtotalMinor - codeDiscountMinor,
    freeShipping,
    code,
  };
}

/**
 * What a refund of `quantity` units of a line gives back at most: the line's charged total shared per unit
 * (largest remainder over its units), for the units not yet refunded. Never more than was paid for them.
 */
export function refundableForUnits(
  line: { quantity: number; lineTotalMinor: number; refundedQuantity: number },
  quantity: number,
): number {
  const perUnit = shareByWeight(
    line.lineTotalMinor,
    Array.from({ length: line.quantity }, () => 1),
  );
  const from = line.refundedQuantity;
  return perUnit.slice(from, from + quantity).reduce((s, x) => s + x, 0);
}
