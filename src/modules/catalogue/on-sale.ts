import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, ProductsTable } from '../../db/database.js';
import type { Discount } from '../../shared/discounts.js';
import { facetKey } from './search-query.js';

/**
 * What the On sale filter finds (decision 0037): products a running sale covers, the product itself or
 * one of its colours; the same in SQL (here) and in the facet snapshot (snapshot/on-sale-slots.ts). A
 * sale's scope: chosen products or products with any of its tags (every product when neither), and of
 * those, when it names colours, the ones having one of them.
 */
export type SaleReach = { products: string[]; tags: string[]; colours: string[] };

/** Each running sale's reach, keyed as the facets are (tags and colours folded as facetKey folds them). */
export function reachOf(sales: readonly Discount[]): SaleReach[] {
  return sales.map((sale) => ({
    products: sale.scope.products ?? [],
    tags: (sale.scope.tags ?? []).map((t) => facetKey('tag', t)).filter((t) => t !== ''),
    colours: (sale.scope.colours ?? []).map((c) => facetKey('color', c)).filter((c) => c !== ''),
  }));
}

type Eb = ExpressionBuilder<Database & { p: ProductsTable }, 'p'>;

/** Whether product `p` is on sale: any reach holds it (false when no sale runs). */
export function onSaleCondition(eb: Eb, reaches: readonly SaleReach[]): Expression<SqlBool> {
  if (reaches.length === 0) return sql<SqlBool>`1 = 0`;
  const facet = (kind: 'tag' | 'color', keys: string[]) =>
    eb.exists(
      eb
        .selectFrom('product_facets as sf')
        .select(sql.lit(1).as('one'))
        .whereRef('sf.product_id', '=', 'p.id')
        .where('sf.kind', '=', kind)
        .where('sf.value_key', 'in', keys),
    );
  return eb.or(
    reaches.map((r) => {
      const parts: Expression<SqlBool>[] = [];
      const chosen: Expression<SqlBool>[] = [];
      if (r.products.length > 0) chosen.push(eb('p.id', 'in', r.products));
      if (r.tags.length > 0) chosen.push(facet('tag', r.tags));
      if (chosen.length > 0) parts.push(eb.or(chosen));
      if (r.colours.length > 0) parts.push(facet('color', r.colours));
      return parts.length === 0 ? sql<SqlBool>`1 = 1` : eb.and(parts);
    }),
  );
}
