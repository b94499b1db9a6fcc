import type { DbOrTx } from '../../db/database.js';
import { sizeSoldOut } from './sold-out.js';

/** A size's count as the shop keeps it; what a shopper can buy is on_hand - reserved. */
export type SizeCount = { onHand: number; reserved: number };

/** How long a demo checkout holds its units (a Stripe checkout holds them until its session expires). */
export const DEMO_RESERVATION_MS = 30 * 60_000;

export function available(count: SizeCount): number {
  return Math.max(0, count.onHand - count.reserved);
}

/**
 * The tracked sizes of these products: product id -> size -> count. Untracked sizes have no entry. Holds
 * whose time has run out at `now` no longer count, even before anything released them.
 */
export async function stockOf(
  db: DbOrTx,
  productIds: string[],
  now: Date,
): Promise<Map<string, Map<string, SizeCount>>> {
  const result = new Map<string, Map<string, SizeCount>>();
  if (productIds.length === 0) return result;
  const ids = [...new Set(productIds)];
  const [rows, ended] = await Promise.all([
    db
      .selectFrom('size_stock')
      .select(['product_id', 'size', 'on_hand', 'reserved'])
      .where('product_id', 'in', ids)
      .execute(),
    db
      .selectFrom('stock_reservations')
      .select(['product_id', 'size', 'quantity'])
      .where('product_id', 'in', ids)
      .where('state', '=', 'held')
      .where('expires_at', '<', now.toISOString())
      .execute(),
  ]);
  for (const r of rows) {
    const sizes = result.get(r.product_id) ?? new Map<string, SizeCount>();
    const over = ended
      .filter((e) => e.product_id === r.product_id && e.size === r.size)
      .reduce((sum, e) => sum + e.quantity, 0);
    sizes.set(r.size, { onHand: r.on_hand, reserved: Math.max(0, r.reserved - over) });
    result.set(r.product_id, sizes);
  }
  return result;
}

/**
 * Which sizes of these products are sold out, as the storefront shows it: from the counts alone, so the
 * answer changes exactly when the storefront revision (the caches' key) does. product id -> sizes.
 */
export async function soldOutByProduct(db: DbOrTx, productIds: string[]): Promise<Map<string, Set<string>>> {
  const result = new Map<string, Set<string>>();
  if (productIds.length === 0) return result;
  const rows = await db
    .selectFrom('size_stock')
    .select(['product_id', 'size'])
    .where('product_id', 'in', [...new Set(productIds)])
    .where(sizeSoldOut())
    .execute();
  for (const r of rows) {
    const sizes = result.get(r.product_id) ?? new Set<string>();
    sizes.add(r.size);
    result.set(r.product_id, sizes);
  }
  return result;
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

/** The sizes of a product that cannot be bought now (tracked, nothing left beyond open checkouts). */
export function soldOutSizes(sizes: string[], counts: Map<string, SizeCount> | undefined): string[] {
  if (!counts) return [];
  return sizes.filter((s) => {
    const c = counts.get(s);
    return c !== undefined && available(c) === 0;
  });
}

/** A product is sold out when it has sizes and every one of them is. */
export function isSoldOut(sizes: string[], counts: Map<string, SizeCount> | undefined): boolean {
  return sizes.length > 0 && soldOutSizes(sizes, counts).length === sizes.length;
}

/**
 * Sets a product's stock from the admin's form or an import: sizes in `stock` are tracked with that count
 * on hand (units held by open checkouts stay held), every other size is untracked.
 */
export async function setStock(trx: DbOrTx, productId: string, stock: Record<string, number>): Promise<void> {
  const sizes = Object.keys(stock);
  let remove = trx.deleteFrom('size_stock').where('product_id', '=', productId);
  if (sizes.length > 0) remove = remove.where('size', 'not in', sizes);
  await remove.execute();
  for (const [size, onHand] of Object.entries(stock)) {
    await trx
      .insertInto('size_stock')
      .values({ product_id: productId, size, on_hand: onHand, reserved: 0 })
      .onConflict((oc) => oc.columns(['product_id', 'size']).doUpdateSet({ on_hand: onHand }))
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
    .select(['s.product_id', 'p.title', 'p.sku', 's.size', 's.on_hand', 's.reserved'])
    .where((eb) => eb(eb('s.on_hand', '-', eb.ref('s.reserved')), '<=', threshold))
    .orderBy((eb) => eb('s.on_hand', '-', eb.ref('s.reserved')))
    .orderBy('p.title')
    .orderBy('s.size')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    productId: r.product_id,
    title: r.title,
    sku: r.sku,
    size: r.size,
    onHand: r.on_hand,
    reserved: r.reserved,
    left: Math.max(0, r.on_hand - r.reserved),
  }));
}

/** A product's tracked sizes and their counts on hand, as the form and the YAML file hold them. */
export async function stockMapOf(db: DbOrTx, productId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('size_stock')
    .select(['size', 'on_hand'])
    .where('product_id', '=', productId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.size, r.on_hand]));
}
