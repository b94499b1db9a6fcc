import type { z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import { colourOptionsOf, parseJsonArray } from '../../db/json-columns.js';
import { type LineProblem, MAX_LINE_QUANTITY, type Quote, type QuotedLine } from '../../shared/checkout.js';
import type { cartLineInput } from '../../shared/checkout-input.js';
import {
  ALL_COLOURS,
  type ColourOption,
  colourKey,
  colourSlug,
  findColour,
  photosForColour,
} from '../../shared/colours.js';
import {
  CODE_REFUSAL_TEXT,
  type CodeRefusal,
  type Discount,
  type PricedCart,
  type PricedItem,
  priceLines,
} from '../../shared/discounts.js';
import { productSpelling, sizeKey } from '../../shared/sizes.js';
import { findCode, readSales } from '../discounts/discounts.repository.js';
import { usesByEmail } from '../discounts/redemptions.repository.js';
import { type FitCm, fitChartOf, keptFit } from '../products/fit-chart.js';
import { available, poolOf, stockOf } from '../stock/stock.repository.js';

type CartLine = z.infer<typeof cartLineInput>;

/** The code (and the address it is for, when a code counts uses per address) a cart comes with. */
export type CartCode = { code?: string | undefined; email?: string | undefined };

/** A priced cart: the shopper's quote, and what the order snapshot needs beyond it. */
export type PricedQuote = {
  quote: Quote;
  /** Per quoted line: the sale it sells at (id), or null. */
  saleIds: Array<string | null>;
  /** The code that applies, or null. */
  code: Discount | null;
  /** The code typed names no code at all: what the wrong-code limit counts. */
  unknownCode: boolean;
  /** Per quoted line: the fit finder's measurements kept with it (decision 0040), or null. */
  fits: Array<FitCm | null>;
};

export async function quoteCart(
  db: DbOrTx,
  input: CartLine[],
  now: Date,
  cart: CartCode = {},
): Promise<Quote> {
  return (await priceCart(db, input, now, cart)).quote;
}

/**
 * Prices a cart from the database, line by line, and says what is wrong with each line that cannot be
 * bought as it is. The browser's idea of a price is only compared, never used. Lines of one product and
 * size are merged, whatever the size's spelling ('m', 'M'), and carry the product's own spelling, so a
 * tampered cart cannot dodge the per-line quantity limit: the merged line is capped at the limit.
 */
export async function priceCart(
  db: DbOrTx,
  input: CartLine[],
  now: Date,
  cart: CartCode = {},
): Promise<PricedQuote> {
  const ids = [...new Set(input.map((l) => l.productId))];
  const rows = await db
    .selectFrom('products as p')
    .select([
      'p.id',
      'p.title',
      'p.price_minor',
      'p.currency',
      'p.sizes',
      'p.size_detail',
      'p.colour_options',
      'p.images',
      'p.tags',
    ])
    .where('p.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const coloursOf = new Map(rows.map((r) => [r.id, colourOptionsOf(r.colour_options)]));
  // Every photo of the cart's products (a few): a colour's line shows its own first photo, else one of every
  // colour's, never another colour's (the product's first photo may be Maroon's on a Teal line).
  const media = await db
    .selectFrom('media')
    .select(['product_id', 'url'])
    .where('product_id', 'in', ids)
    .where('media_type', '=', 'image')
    .orderBy('product_id')
    .orderBy('display_order')
    .orderBy('id')
    .execute();
  const photosOf = new Map<string, Array<{ url: string }>>();
  for (const m of media) photosOf.set(m.product_id, [...(photosOf.get(m.product_id) ?? []), { url: m.url }]);
  // A colour may also name a photo a plain catalogue file listed (products.images, after the media rows).
  const listedOf = new Map(rows.map((r) => [r.id, parseJsonArray(r.images).map((url) => ({ url }))]));

  const merged = new Map<string, Omit<CartLine, 'colour'> & { colour: string | null }>();
  for (const raw of input) {
    const product = byId.get(raw.productId);
    const size =
      raw.size === null ? null : productSpelling(product ? parseJsonArray(product.sizes) : [], raw.size);
    // The product's own spelling of its colour, whatever spelling or slug the cart kept.
    const colour = findColour(coloursOf.get(raw.productId) ?? [], raw.colour)?.name ?? raw.colour ?? null;
    const line = { ...raw, colour, size };
    const key = JSON.stringify([
      line.productId,
      colour === null ? null : colourSlug(colour),
      size === null ? null : sizeKey(size),
    ]);
    const existing = merged.get(key);
    merged.set(
      key,
      existing
        ? {
            ...existing,
            quantity: Math.min(MAX_LINE_QUANTITY, existing.quantity + line.quantity),
            // Lines that differ only by the measurements are one line: the later measurements are kept.
            fit: line.fit ?? existing.fit,
          }
        : line,
    );
  }
  const lines = [...merged.values()];

  const stock = await stockOf(db, ids, now);
  const items = lines.map((line): PricedItem | null => {
    const product = byId.get(line.productId);
    if (!product) return null;
    const colour = findColour(coloursOf.get(product.id) ?? [], line.colour);
    return {
      productId: product.id,
      tags: parseJsonArray(product.tags),
      colourKey: colour ? colourKey(colour.name) : null,
      unitPriceMinor: colour?.priceMinor ?? product.price_minor,
      currency: product.currency,
      quantity: line.quantity,
    };
  });
  const known = items.filter((i): i is PricedItem => i !== null);
  const currencies = [...new Set(known.map((i) => i.currency))];
  const sales = await readSales(db);
  const typed = cart.code;
  // A code is of one currency's lines: a cart of several is refused anyway, so it is priced without one.
  const found = typed && currencies.length === 1 ? await findCode(db, typed) : null;
  const byEmail =
    found?.maxUsesPerEmail != null && cart.email ? await usesByEmail(db, found.id, cart.email) : undefined;
  const priced: PricedCart = priceLines(known, {
    sales,
    code: typed && currencies.length === 1 ? (found ?? 'not_found') : null,
    now,
    ...(byEmail === undefined ? {} : { usesByEmail: byEmail }),
  });
  const pricedOf = new Map(known.map((item, i) => [item, priced.lines[i]]));

  const quoted: QuotedLine[] = lines.map((line, index) => {
    const item = items[index];
    const price = item ? pricedOf.get(item) : undefined;
    const product = byId.get(line.productId);
    if (!product) {
      return {
        ...pick(line),
        title: null,
        image: null,
        unitPriceMinor: null,
        regularUnitPriceMinor: null,
        sale: null,
        codeDiscountMinor: 0,
        currency: null,
        lineTotalMinor: null,
        problem: 'removed',
        left: null,
      };
    }
    const sizes = parseJsonArray(product.sizes);
    const colours = coloursOf.get(product.id) ?? [];
    const colour: ColourOption | undefined = findColour(colours, line.colour);
    const found =
      line.size === null
        ? undefined
        : poolOf(stock.get(product.id), colour ? colourKey(colour.name) : ALL_COLOURS, line.size);
    const left = found ? available(found.count) : null;
    const regularUnitPriceMinor = colour?.priceMinor ?? product.price_minor;
    // What the shopper is charged per unit: the sale price; the price_changed check compares with it.
    const unitPriceMinor = price?.unitPriceMinor ?? regularUnitPriceMinor;
    const problem: LineProblem | null =
      colours.length > 0 && line.colour === null
        ? 'colour_required'
        : (colours.length > 0 && !colour) || (colours.length === 0 && line.colour !== null)
          ? 'colour_unavailable'
          : sizes.length > 0 && line.size === null
            ? 'size_required'
            : line.size !== null && !sizes.some((s) => sizeKey(s) === sizeKey(line.size ?? ''))
              ? 'size_unavailable'
              : left === 0
                ? 'sold_out'
                : left !== null && line.quantity > left
                  ? 'not_enough_stock'
                  : line.seenUnitPriceMinor !== undefined && line.seenUnitPriceMinor !== unitPriceMinor
                    ? 'price_changed'
                    : null;
    return {
      ...pick(line),
      title: product.title,
      image: lineImage(photosOf.get(product.id) ?? [], listedOf.get(product.id) ?? [], colours, colour),
      unitPriceMinor,
      regularUnitPriceMinor,
      sale: price?.sale ? { name: price.sale.name, percentOff: price.sale.percentOff } : null,
      codeDiscountMinor: price?.codeDiscountMinor ?? 0,
      currency: product.currency,
      lineTotalMinor: price?.totalMinor ?? unitPriceMinor * line.quantity,
      problem,
      left,
    };
  });

  const applied = priced.code && 'applied' in priced.code ? priced.code.applied : null;
  const refused: CodeRefusal | null = priced.code && 'refused' in priced.code ? priced.code.refused : null;
  const quote: Quote = {
    lines: quoted,
    currency: currencies.length === 1 ? (currencies[0] ?? null) : null,
    currencies,
    subtotalMinor: priced.subtotalMinor,
    salesMinor: priced.salesMinor,
    discountMinor: priced.codeDiscountMinor,
    totalMinor: priced.totalMinor,
    code: applied
      ? {
          code: applied.code ?? '',
          name: applied.name,
          freeShipping: priced.freeShipping,
          needsEmail: applied.maxUsesPerEmail !== null,
        }
      : null,
    codeRefusal: refused ? { reason: refused, message: CODE_REFUSAL_TEXT[refused] } : null,
    ok: currencies.length === 1 && quoted.every((l) => l.problem === null),
  };
  return {
    quote,
    saleIds: items.map((item) => (item ? (pricedOf.get(item)?.sale?.id ?? null) : null)),
    code: applied,
    unknownCode: refused === 'not_found',
    fits: lines.map((line) => {
      const product = byId.get(line.productId);
      if (!product || !line.fit) return null;
      const { chart } = fitChartOf({ ...product, sizes: parseJsonArray(product.sizes) }, line.colour);
      return keptFit(chart, line.fit.cm);
    }),
  };
}

/**
 * The photo a line shows: the colour's own first, else the first photo of every colour, else the product's
 * first media photo (a line without a colour shows that, as before colours). A colour's photo that is not
 * among the product's (a hand-edited file) is not shown.
 */
function lineImage(
  media: Array<{ url: string }>,
  listed: Array<{ url: string }>,
  colours: ColourOption[],
  colour: ColourOption | undefined,
): string | null {
  if (!colour) return media[0]?.url ?? null;
  return photosForColour([...media, ...listed], colours, colour)[0]?.url ?? media[0]?.url ?? null;
}

function pick(line: Omit<CartLine, 'colour'> & { colour: string | null }) {
  return { productId: line.productId, colour: line.colour, size: line.size, quantity: line.quantity };
}
