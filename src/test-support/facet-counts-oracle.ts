import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx, FacetKind } from '../db/database.js';
import { sizeKey } from '../db/engine-sql.js';
import { fullText } from '../modules/catalogue/full-text.js';
import { facetKey } from '../modules/catalogue/search-query.js';
import type { RawFacetCounts } from '../modules/catalogue/snapshot/facet-snapshot.js';
import { sizeSoldOut } from '../modules/stock/sold-out.js';
import type { CatalogueFilter } from '../shared/storefront-input.js';

const GROUPS = [
  ['manufacturer', 'manufacturers'],
  ['size', 'sizes'],
  ['color', 'colors'],
  ['tag', 'tags'],
] as const;

/**
 * Facet counts written the plain way, one SQL query per group, as the store counted them before the
 * in-memory snapshot: the reference the snapshot's answers are checked against.
 */
export async function facetCountsBySql(db: DbOrTx, f: CatalogueFilter): Promise<RawFacetCounts> {
  const { conditions, sellable } = await plainConditions(db, f);

  const counted: RawFacetCounts['counted'] = new Map();
  for (const [kind, field] of GROUPS) {
    const chosen = f[field].some((v) => facetKey(kind, v) !== '') || (kind === 'size' && f.inStock);
    const rows = await sql<{ key: string; value: string; count: number }>`
      SELECT f.value_key AS key, min(f.value) AS value, count(*) AS count
      FROM product_facets f JOIN products p ON p.id = f.product_id
      WHERE f.kind = ${kind} AND ${conditions(chosen ? kind : undefined)}
        AND ${kind === 'size' ? sellable('f') : sql`1 = 1`}
      GROUP BY f.value_key`.execute(db);
    if (rows.rows.length > 0) counted.set(kind, rows.rows);
  }
  const price = await sql<{ min: number | null; max: number | null }>`
    SELECT min(p.price_minor) AS min, max(p.price_minor) AS max FROM products p
    WHERE ${conditions('price')}`.execute(db);
  const range = price.rows[0];
  return {
    counted,
    price: range && range.min !== null && range.max !== null ? { min: range.min, max: range.max } : null,
  };
}

/** The ids of the products a filter finds, the plain way, sorted. */
export async function matchingIdsBySql(db: DbOrTx, f: CatalogueFilter): Promise<string[]> {
  const { conditions } = await plainConditions(db, f);
  const rows = await sql<{
    id: string;
  }>`SELECT p.id FROM products p WHERE ${conditions()} ORDER BY p.id`.execute(db);
  return rows.rows.map((r) => r.id);
}

async function plainConditions(db: DbOrTx, f: CatalogueFilter) {
  const text = await fullText(db, f.q);
  // A size facet row (alias) whose size is tracked with nothing left beyond what checkouts hold.
  const soldOut = (alias: string) => sql`EXISTS (SELECT 1 FROM size_stock ss
    WHERE ss.product_id = ${sql.ref(`${alias}.product_id`)} AND ${sizeSoldOut('ss')}
    AND ${sizeKey(db, sql.ref('ss.size'))} = ${sql.ref(`${alias}.value_key`)})`;
  const sellable = (alias: string) => (f.inStock ? sql`NOT ${soldOut(alias)}` : sql`1 = 1`);
  const conditions = (except?: FacetKind | 'price'): RawBuilder<unknown> => {
    const parts: RawBuilder<unknown>[] = [sql`1 = 1`];
    if (text) {
      parts.push(sql`p.id IN (SELECT s.product_id FROM ${text.table}
        JOIN product_search_ids s ON s.rowid = ${text.rowid} WHERE ${text.match})`);
    }
    for (const [kind, field] of GROUPS) {
      const keys = [...new Set(f[field].map((v) => facetKey(kind, v)).filter((k) => k !== ''))];
      if (kind === except || keys.length === 0) continue;
      parts.push(sql`EXISTS (SELECT 1 FROM product_facets g WHERE g.product_id = p.id AND g.kind = ${kind}
        AND g.value_key IN (${sql.join(keys)}) AND ${kind === 'size' ? sellable('g') : sql`1 = 1`})`);
    }
    const sizesChosen = f.sizes.some((v) => facetKey('size', v) !== '');
    if (f.inStock && !sizesChosen && except !== 'size') {
      // No sizes at all, or one that can be bought.
      parts.push(sql`(NOT EXISTS (SELECT 1 FROM product_facets g WHERE g.product_id = p.id AND g.kind = 'size')
        OR EXISTS (SELECT 1 FROM product_facets g WHERE g.product_id = p.id AND g.kind = 'size'
          AND NOT ${soldOut('g')}))`);
    }
    if (except !== 'price') {
      if (f.priceMin !== undefined) parts.push(sql`p.price_minor >= ${f.priceMin}`);
      if (f.priceMax !== undefined) parts.push(sql`p.price_minor <= ${f.priceMax}`);
    }
    return sql.join(parts, sql` AND `);
  };
  return { conditions, sellable };
}
