import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { parseJsonArray } from '../../db/json-columns.js';
import { colourKey } from '../../shared/colours.js';

/**
 * The one rule of "sold out": a tracked size (a size_stock row) with nothing left beyond what open checkouts
 * hold. The partial index size_stock_sold_out (migration 0021) is built on this WHERE, which is what lets the
 * storefront's sold-out queries use it; sold-out-index.test.ts reads the index back from a migrated database
 * of each engine and fails if the two ever differ.
 */
export function sizeSoldOut(alias?: 'ss' | 's'): RawBuilder<SqlBool> {
  const column = (name: 'on_hand' | 'reserved') => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<SqlBool>`${column('on_hand')} <= ${column('reserved')}`;
}

/** The same rule on a row already read. */
export function isSoldOut(count: { on_hand: number; reserved: number }): boolean {
  return count.on_hand <= count.reserved;
}

/** A stock row as the sold-out rule reads it: its pool (colour key, '' for all colours), size and state. */
export type PoolRow = { colour: string; size: string; soldOut: boolean };

/** What is sold out of one product: per colour, and the sizes sold out in every colour (what a card shows). */
export type SoldOutStock = { sizes: Set<string>; byColour: Map<string, Set<string>> };

/**
 * The one rule of colour stock (decision 0036): a colour and size is counted by the colour's own row when it
 * has one, else by the all-colours row (''), else it is not tracked (always available). `colours` are the
 * product's colour keys (none for a product without colours). Sizes are the rows' own spelling.
 */
export function soldOutOf(colours: readonly string[], rows: readonly PoolRow[]): SoldOutStock {
  const state = new Map<string, boolean>();
  for (const r of rows) state.set(`${r.colour}\u001f${r.size}`, r.soldOut);
  const sizes = [...new Set(rows.map((r) => r.size))];
  const out = (colour: string, size: string) =>
    state.get(`${colour}\u001f${size}`) ?? state.get(`\u001f${size}`) ?? false;
  if (colours.length === 0)
    return { sizes: new Set(sizes.filter((s) => state.get(`\u001f${s}`) === true)), byColour: new Map() };
  const byColour = new Map<string, Set<string>>();
  for (const c of colours) {
    const gone = sizes.filter((s) => out(c, s));
    if (gone.length > 0) byColour.set(c, new Set(gone));
  }
  return { sizes: new Set(sizes.filter((s) => colours.every((c) => out(c, s)))), byColour };
}

/**
 * soldOutOf for each product of `products` (id and colour names as products.colors keeps them) from its stock
 * rows among `rows`: the products with anything sold out, in `products`' order.
 */
export function soldOutOfProducts(
  products: ReadonlyArray<{ id: string; colors: string }>,
  rows: ReadonlyArray<{
    product_id: string;
    colour: string;
    size: string;
    on_hand: number;
    reserved: number;
  }>,
): Array<[string, SoldOutStock]> {
  const rowsOf = new Map<string, PoolRow[]>();
  for (const r of rows) {
    let list = rowsOf.get(r.product_id);
    if (!list) {
      list = [];
      rowsOf.set(r.product_id, list);
    }
    list.push({ colour: r.colour, size: r.size, soldOut: isSoldOut(r) });
  }
  const out: Array<[string, SoldOutStock]> = [];
  for (const p of products) {
    const found = soldOutOf(parseJsonArray(p.colors).map(colourKey), rowsOf.get(p.id) ?? []);
    if (found.sizes.size > 0 || found.byColour.size > 0) out.push([p.id, found]);
  }
  return out;
}
