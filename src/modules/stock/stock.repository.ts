import type { DbOrTx } from '../../db/database.js';
import { parseJsonArray } from '../../db/json-columns.js';
import { ALL_COLOURS, colourKey } from '../../shared/colours.js';
import { type SoldOutStock, sizeSoldOut, soldOutOfProducts } from './sold-out.js';

/** A size's count as the shop keeps it; what a shopper can buy is on_hand - reserved. */
export type SizeCount = { onHand: number; reserved: number };

/** How long a demo checkout holds its units (a Stripe checkout holds them until its session expires). */
export const DEMO_RESERVATION_MS = 30 * 60_000;

export function available(count: SizeCount): number {
  return Math.max(0, count.onHand - count.reserved);
}

/** A product's stock: pool (colour key; '' for all colours) -> size -> count. */
export type ProductStock = Map<string, Map<string, SizeCount>>;

/**
 * The count a colour and size is sold from (decision 0036): the colour's own when it has one, else all
 * colours' (''), else none (not tracked: always available). `colour` is a colour key, '' for no colour.
 */
export function poolOf(
  stock: ProductStock | undefined,
  colour: string,
  size: string,
): { pool: string; count: SizeCount } | undefined {
  const own = stock?.get(colour)?.get(size);
  if (own) return { pool: colour, count: own };
  const shared = stock?.get(ALL_COLOURS)?.get(size);
  return shared ? { pool: ALL_COLOURS, count: shared } : undefined;
}

/**
 * The tracked sizes of these products: product id -> pool -> size -> count. Untracked sizes have no entry.
 * Holds whose time has run out at `now` no longer count, even before anything released them.
 */
export async function stockOf(
  db: DbOrTx,
  productIds: string[],
  now: Date,
): Promise<Map<string, ProductStock>> {
  const result = new Map<string, ProductStock>();
  if (productIds.length === 0) return result;
  const ids = [...new Set(productIds)];
  const [rows, ended] = await Promise.all([
    db
      .selectFrom('size_stock')
      .select(['product_id', 'colour', 'size', 'on_hand', 'reserved'])
      .where('product_id', 'in', ids)
      .execute(),
    db
      .selectFrom('stock_reservations')
      .select(['product_id', 'colour', 'size', 'quantity'])
      .where('product_id', 'in', ids)
      .where('state', '=', 'held')
      .where('expires_at', '<', now.toISOString())
      .execute(),
  ]);
  for (const r of rows) {
    const pools = result.get(r.product_id) ?? new Map<string, Map<string, SizeCount>>();
    const sizes = pools.get(r.colour) ?? new Map<string, SizeCount>();
    const over = ended
      .filter((e) => e.product_id === r.product_id && e.colour === r.colour && e.size === r.size)
      .reduce((sum, e) => sum + e.quantity, 0);
    sizes.set(r.size, { onHand: r.on_hand, reserved: Math.max(0, r.reserved - over) });
    pools.set(r.colour, sizes);
    result.set(r.product_id, pools);
  }
  return result;
}

/**
 * What is sold out of these products, as the storefront shows it: from the counts alone, so the answer
 * changes exactly when the storefront revision (the caches' key) does. Only products with a sold-out row
 * are read whole (few: the partial index size_stock_sold_out finds them). product id -> sold-out stock.
 */
export async function soldOutStockOf(db: DbOrTx, productIds: string[]): Promise<Map<string, SoldOutStock>> {
  const result = new Map<string, SoldOutStock>();
  if (productIds.length === 0) return result;
  const touched = await db
    .selectFrom('size_stock')
    .select('product_id')
    .distinct()
    .where('product_id', 'in', [...new Set(productIds)])
    .where(sizeSoldOut())
    .execute();
  return soldOutStockOfTouched(
    db,
    touched.map((r) => r.product_id),
  );
}

/** soldOutStockOf for products known to have a sold-out row (the facet snapshot reads those for all). */
export async function soldOutStockOfTouched(
  db: DbOrTx,
  productIds: string[],
): Promise<Map<string, SoldOutStock>> {
  const result = new Map<string, SoldOutStock>();
  for (let i = 0; i < productIds.length; i += 500) {
    const ids = productIds.slice(i, i + 500);
    const [rows, products] = await Promise.all([
      db
        .selectFrom('size_stock')
        .select(['product_id', 'colour', 'size', 'on_hand', 'reserved'])
        .where('product_id', 'in', ids)
        .execute(),
      db.selectFrom('products').select(['id', 'colors']).where('id', 'in', ids).execute(),
    ]);
    for (const [id, found] of soldOutOfProducts(products, rows)) result.set(id, found);
  }
  return result;
}

/**
 * Which sizes of these products are sold out in every colour (a card's marks): product id -> sizes.
 */
export async function soldOutByProduct(db: DbOrTx, productIds: string[]): Promise<Map<string, Set<string>>> {
  const stock = await soldOutStockOf(db, productIds);
  return new Map([...stock].flatMap(([id, s]) => (s.sizes.size > 0 ? [[id, s.sizes] as const] : [])));
}

/** What a card says of its stock: which of its sizes are sold out, and whether every one is. */
type StockMarks = { id: string; sizes: string[]; soldOut: boolean; soldOutSizes?: string[] };

/** Marks the cards' sold-out sizes, and the cards whose every size is sold out. */
export async function withSoldOut<T extends StockMarks>(db: DbOrTx, cards: T[]): Promise<T[]> {
  const soldOut = await soldOutByProduct(
    db,
    cards.map((c) => c.id),
  );
  return markSoldOut(cards, (id) => soldOut.get(id));
}

/** Marks each card with its sizes among its sold-out sizes (as soldOutByProduct gives them). */
export function markSoldOut<T extends StockMarks>(
  cards: T[],
  soldOutSizesOf: (id: string) => Set<string> | undefined,
): T[] {
  return cards.map((c) => markCard(c, soldOutSizesOf(c.id)));
}

/**
 * The card with `soldOutSizes`, its own sizes that are among `soldOut` (the exact spelling, as on the product
 * page), and `soldOut` when that is every one of them; the card itself, unchanged, when none is. A card with
 * every size buyable carries no list at all: most cards of a listing, whose JSON stays as it was.
 */
export function markCard<T extends StockMarks>(card: T, soldOut: Set<string> | undefined): T {
  if (!soldOut) return card;
  const soldOutSizes = card.sizes.filter((s) => soldOut.has(s));
  if (soldOutSizes.length === 0) return card;
  return { ...card, soldOutSizes, soldOut: soldOutSizes.length === card.sizes.length };
}

/** The sizes of a product (of one colour, '' for none) that cannot be bought now. */
export function soldOutSizes(
  sizes: string[],
  stock: ProductStock | undefined,
  colour = ALL_COLOURS,
): string[] {
  if (!stock) return [];
  return sizes.filter((s) => {
    const found = poolOf(stock, colour, s);
    return found !== undefined && available(found.count) === 0;
  });
}

/**
 * Sets a product's stock from the admin's form or an import: sizes in `stock` are tracked for all colours,
 * those in `colourStock` (by colour name) for that colour, with that count on hand (units held by open
 * checkouts stay held); every other row goes (untracked, or drawn from all colours' count).
 */
export async function setStock(
  trx: DbOrTx,
  productId: string,
  stock: Record<string, number>,
  colourStock: Record<string, Record<string, number>> = {},
): Promise<void> {
  const rows = [
    ...Object.entries(stock).map(([size, onHand]) => ({ colour: ALL_COLOURS, size, onHand })),
    ...Object.entries(colourStock).flatMap(([name, counts]) =>
      Object.entries(counts).map(([size, onHand]) => ({ colour: colourKey(name), size, onHand })),
    ),
  ];
  const kept = new Set(rows.map((r) => `${r.colour}\u001f${r.size}`));
  const existing = await trx
    .selectFrom('size_stock')
    .select(['colour', 'size'])
    .where('product_id', '=', productId)
    .execute();
  for (const r of existing) {
    if (kept.has(`${r.colour}\u001f${r.size}`)) continue;
    await trx
      .deleteFrom('size_stock')
      .where('product_id', '=', productId)
      .where('colour', '=', r.colour)
      .where('size', '=', r.size)
      .execute();
  }
  for (const { colour, size, onHand } of rows) {
    await trx
      .insertInto('size_stock')
      .values({ product_id: productId, colour, size, on_hand: onHand, reserved: 0 })
      .onConflict((oc) => oc.columns(['product_id', 'colour', 'size']).doUpdateSet({ on_hand: onHand }))
      .execute();
  }
}

/**
 * The tracked sizes with `threshold` or fewer left to sell (on hand minus held), fewest first: the
 * dashboard's list of what to reorder. Sold-out sizes are in it (0 left).
 */
export async function lowStock(db: DbOrTx, threshold: number, limit = 100) {
  const rows = await db
    .selectFrom('size_stock as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select(['s.product_id', 'p.title', 'p.sku', 'p.colors', 's.colour', 's.size', 's.on_hand', 's.reserved'])
    .where((eb) => eb(eb('s.on_hand', '-', eb.ref('s.reserved')), '<=', threshold))
    .orderBy((eb) => eb('s.on_hand', '-', eb.ref('s.reserved')))
    .orderBy('p.title')
    .orderBy('s.colour')
    .orderBy('s.size')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    productId: r.product_id,
    title: r.title,
    sku: r.sku,
    /** The colour's name; null for all colours' count. */
    colour: r.colour === ALL_COLOURS ? null : colourName(parseJsonArray(r.colors), r.colour),
    size: r.size,
    onHand: r.on_hand,
    reserved: r.reserved,
    left: Math.max(0, r.on_hand - r.reserved),
  }));
}

/** The name of a colour key among a product's colour names (the key itself when it is no longer one). */
export function colourName(names: string[], key: string): string {
  return names.find((n) => colourKey(n) === key) ?? key;
}

/**
 * A product's tracked sizes and their counts on hand, as the form and the YAML file hold them: all colours'
 * per size, and each colour's (by its name) per size.
 */
export async function stockMapOf(
  db: DbOrTx,
  productId: string,
  colourNames: string[],
): Promise<{ stock: Record<string, number>; colourStock: Record<string, Record<string, number>> }> {
  const rows = await db
    .selectFrom('size_stock')
    .select(['colour', 'size', 'on_hand'])
    .where('product_id', '=', productId)
    .orderBy('colour')
    .execute();
  const stock: Record<string, number> = {};
  const colourStock: Record<string, Record<string, number>> = {};
  for (const r of rows) {
    if (r.colour === ALL_COLOURS) stock[r.size] = r.on_hand;
    else {
      const name = colourName(colourNames, r.colour);
      colourStock[name] = { ...colourStock[name], [r.size]: r.on_hand };
    }
  }
  return { stock, colourStock };
}
