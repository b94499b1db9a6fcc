import { type RawBuilder, type SqlBool, sql } from 'kysely';

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
