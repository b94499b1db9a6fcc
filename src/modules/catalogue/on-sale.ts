import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, DbOrTx, ProductsTable } from '../../db/database.js';
import { greatest, least } from '../../db/engine-sql.js';
import type { Discount, DiscountValue } from '../../shared/discounts.js';
import { facetKey } from './search-query.js';

/**
 * What the On sale filter finds (decision 0037): products a running sale covers, the product itself or
 * one of its colours; the same in SQL (here) and in the facet snapshot (snapshot/on-sale-slots.ts). A
 * sale's scope: chosen products or products with any of its tags (every product when neither), and of
 * those, when it names colours, the ones having one of them.
 */
export type SaleReach = { products: string[]; tags: string[]; colours: string[]; value: DiscountValue };

/** Each running sale's reach, keyed as the facets are (tags and colours folded as facetKey folds them). */
export function reachOf(sales: readonly Discount[]): SaleReach[] {
  const kept = reaches.get(sales);
  if (kept) return kept;
  const made = sales.map((sale) => ({
    products: sale.scope.products ?? [],
    tags: (sale.scope.tags ?? []).map((t) => facetKey('tag', t)).filter((t) => t !== ''),
    colours: (sale.scope.colours ?? []).map((c) => facetKey('color', c)).filter((c) => c !== ''),
    value: sale.value,
  }));
  reaches.set(sales, made);
  return made;
}

/** Kept per list of sales (runningSalesOf gives one list per revision): their tags and colours folded once. */
const reaches = new WeakMap<readonly Discount[], SaleReach[]>();

type Eb = ExpressionBuilder<Database & { p: ProductsTable }, 'p'>;

/** Whether product `p` is on sale: any reach holds it (false when no sale runs). */
export function onSaleCondition(eb: Eb, reaches: readonly SaleReach[]): Expression<SqlBool> {
  if (reaches.length === 0) return sql<SqlBool>`1 = 0`;
  return eb.or(reaches.map((r) => reachCondition(eb, r)));
}

/** Whether one sale's reach holds product `p` (the product itself, or one of its colours when it names some). */
function reachCondition(eb: Eb, r: SaleReach): Expression<SqlBool> {
  const facet = (kind: 'tag' | 'color', keys: string[]) =>
    eb.exists(
      eb
        .selectFrom('product_facets as sf')
        .select(sql.lit(1).as('one'))
        .whereRef('sf.product_id', '=', 'p.id')
        .where('sf.kind', '=', kind)
        .where('sf.value_key', 'in', keys),
    );
  const parts: Expression<SqlBool>[] = [];
  const chosen: Expression<SqlBool>[] = [];
  if (r.products.length > 0) chosen.push(eb('p.id', 'in', r.products));
  if (r.tags.length > 0) chosen.push(facet('tag', r.tags));
  if (chosen.length > 0) parts.push(eb.or(chosen));
  if (r.colours.length > 0) parts.push(facet('color', r.colours));
  // A fixed amount is of one currency: products priced in another are out of its reach.
  if (r.value.type === 'fixed') parts.push(eb('p.currency', '=', r.value.currency));
  return parts.length === 0 ? sql<SqlBool>`1 = 1` : eb.and(parts);
}

/**
 * The reaches that move a card's own price: sales of no colour in particular. A sale of chosen colours
 * prices those colours' swatches, not the price the card (and so the price sorts and range) shows.
 */
export function cardPriceReaches(reaches: readonly SaleReach[]): SaleReach[] {
  return reaches.filter(movesCardPrice);
}

/** Whether a reach moves a card's own price (see cardPriceReaches; sale-slots.ts asks it per reach). */
export function movesCardPrice(r: SaleReach): boolean {
  return r.colours.length === 0 && r.value.type !== 'free_shipping';
}

/**
 * The price product `p`'s card shows, in SQL: its price less the most any running sale of it takes off a
 * unit (bestSale in shared/discounts.ts: a percentage rounded half up, a fixed amount only in its own
 * currency, never below zero). The price column itself when no such sale runs, so its index still sorts.
 */
export function cardPriceExpression(db: DbOrTx, eb: Eb, reaches: readonly SaleReach[]): Expression<number> {
  const priced = cardPriceReaches(reaches);
  if (priced.length === 0) return eb.ref('p.price_minor');
  const offs = priced.map((r) => {
    // The reach holds only products of a fixed amount's own currency.
    const off =
      r.value.type === 'percent'
        ? sql<number>`(p.price_minor * ${sql.lit(r.value.percent)} + 50) / 100`
        : r.value.type === 'fixed'
          ? sql<number>`${sql.lit(r.value.amountMinor)}`
          : sql<number>`0`;
    return sql<number>`CASE WHEN ${reachCondition(eb, r)} THEN ${off} ELSE 0 END`;
  });
  // Integer division on both engines (whole minor units, never negative): floor, as percentOf rounds.
  return sql<number>`p.price_minor - ${least(db, [eb.ref('p.price_minor'), greatest(db, offs)])}`;
}
