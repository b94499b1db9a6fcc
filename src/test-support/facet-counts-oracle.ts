import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx, FacetKind } from '../db/database.js';
import { colourOptionsOf, parseJsonArray } from '../db/json-columns.js';
import { fullText } from '../modules/catalogue/full-text.js';
import { facetKey } from '../modules/catalogue/search-query.js';
import type { RawFacetCounts } from '../modules/catalogue/snapshot/facet-snapshot.js';
import { colourKey } from '../shared/colours.js';
import { bestSale, type Discount } from '../shared/discounts.js';
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
export async function facetCountsBySql(
  db: DbOrTx,
  f: CatalogueFilter,
  sales: SalesAt = NO_SALES,
): Promise<RawFacetCounts> {
  const { conditions, sellable, colourHas, onSale, charged } = await plainConditions(db, f, sales);

  const counted: RawFacetCounts['counted'] = new Map();
  for (const [kind, field] of GROUPS) {
    const chosen = f[field].some((v) => facetKey(kind, v) !== '') || (kind === 'size' && f.inStock);
    const rows = await sql<{ key: string; value: string; count: number }>`
      SELECT f.value_key AS key, min(f.value) AS value, count(*) AS count
      FROM product_facets f JOIN products p ON p.id = f.product_id
      WHERE f.kind = ${kind} AND ${conditions(chosen ? kind : undefined)}
        AND ${kind === 'size' ? sellable('f') : kind === 'color' ? colourHas('f') : sql`1 = 1`}
      GROUP BY f.value_key`.execute(db);
    if (rows.rows.length > 0) counted.set(kind, rows.rows);
  }
  const unpriced = await sql<{
    id: string;
  }>`SELECT p.id FROM products p WHERE ${conditions('price')}`.execute(db);
  const prices = unpriced.rows.map((r) => charged.get(r.id) ?? 0);
  const found = await sql<{ n: number }>`SELECT count(*) AS n FROM products p
    WHERE ${conditions()} AND ${onSale}`.execute(db);
  return {
    counted,
    price: prices.length > 0 ? { min: Math.min(...prices), max: Math.max(...prices) } : null,
    onSale: Number(found.rows[0]?.n ?? 0),
  };
}

/** The sales the oracle prices with, and when (decision 0037: nothing is on sale without them). */
export type SalesAt = { sales: readonly Discount[]; now: Date };
const NO_SALES: SalesAt = { sales: [], now: new Date(0) };

/**
 * The products on sale and the price each card shows, the plain way: every product and each of its colours
 * priced by the rules themselves (src/shared/discounts.ts bestSale), as a cart line would be; the card's
 * price is the product's own (of no colour in particular).
 */
async function pricedBySales(
  db: DbOrTx,
  { sales, now }: SalesAt,
): Promise<{ onSale: string[]; charged: Map<string, number> }> {
  const rows = await db
    .selectFrom('products')
    .select(['id', 'tags', 'colour_options', 'price_minor', 'currency'])
    .execute();
  const charged = new Map(
    rows.map((p) => {
      const item = {
        productId: p.id,
        tags: parseJsonArray(p.tags),
        currency: p.currency,
        colourKey: null,
        unitPriceMinor: p.price_minor,
      };
      return [p.id, p.price_minor - (bestSale(sales, item, now)?.unitDiscountMinor ?? 0)];
    }),
  );
  if (sales.length === 0) return { onSale: [], charged };
  const onSale = rows.flatMap((p) => {
    const tags = parseJsonArray(p.tags);
    const colours = colourOptionsOf(p.colour_options);
    const items = [
      { colourKey: null, unitPriceMinor: p.price_minor },
      ...colours.map((c) => ({
        colourKey: colourKey(c.name),
        unitPriceMinor: c.priceMinor ?? p.price_minor,
      })),
    ];
    const on = items.some(
      (i) => bestSale(sales, { ...i, productId: p.id, tags, currency: p.currency }, now) !== null,
    );
    return on ? [p.id] : [];
  });
  return { onSale, charged };
}

/** The ids a filter finds in a price sort, the plain way: by the price the card shows, then by id. */
export async function priceOrderBySql(
  db: DbOrTx,
  f: CatalogueFilter,
  sort: 'price-asc' | 'price-desc',
  sales: SalesAt = NO_SALES,
): Promise<string[]> {
  const { charged } = await plainConditions(db, f, sales);
  const ids = await matchingIdsBySql(db, f, sales);
  const sign = sort === 'price-asc' ? 1 : -1;
  return ids.sort((a, b) => sign * ((charged.get(a) ?? 0) - (charged.get(b) ?? 0)) || (a < b ? -1 : 1));
}

/** The ids of the products a filter finds, the plain way, sorted. */
export async function matchingIdsBySql(
  db: DbOrTx,
  f: CatalogueFilter,
  sales: SalesAt = NO_SALES,
): Promise<string[]> {
  const { conditions } = await plainConditions(db, f, sales);
  const rows = await sql<{
    id: string;
  }>`SELECT p.id FROM products p WHERE ${conditions()} ORDER BY p.id`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * What cannot be bought, worked out plainly from every stock row (decision 0036, written here on its own
 * rather than with the store's soldOutOf): `product \u001f size key` pairs sold out in every colour (for a
 * product without colours, by the all-colours row alone), and `product \u001f colour key` pairs of colours
 * with sizes and none buyable in them.
 */
async function unbuyable(db: DbOrTx): Promise<{ sizes: string[]; colours: string[] }> {
  const facets = await db.selectFrom('product_facets').select(['product_id', 'kind', 'value_key']).execute();
  const stock = await db
    .selectFrom('size_stock')
    .select(['product_id', 'colour', 'size', 'on_hand', 'reserved'])
    .execute();
  const keysOf = (id: string, kind: FacetKind) => [
    ...new Set(facets.filter((r) => r.product_id === id && r.kind === kind).map((r) => r.value_key)),
  ];
  const sizes: string[] = [];
  const colours: string[] = [];
  for (const id of new Set(stock.map((r) => r.product_id))) {
    const rows = stock.filter((r) => r.product_id === id);
    const row = (colour: string, size: string) => rows.find((r) => r.colour === colour && r.size === size);
    const out = (colour: string, size: string) => {
      const counted = row(colour, size) ?? row('', size);
      return counted !== undefined && counted.on_hand <= counted.reserved;
    };
    const spellings = [...new Set(rows.map((r) => r.size))];
    const colourKeys = keysOf(id, 'color');
    for (const s of spellings) {
      const gone = colourKeys.length > 0 ? colourKeys.every((c) => out(c, s)) : out('', s);
      if (gone) sizes.push(`${id}\u001f${facetKey('size', s)}`);
    }
    const sizeKeys = keysOf(id, 'size');
    for (const c of colourKeys) {
      const goneIn = (key: string) => spellings.some((s) => facetKey('size', s) === key && out(c, s));
      if (sizeKeys.length > 0 && sizeKeys.every(goneIn)) colours.push(`${id}\u001f${c}`);
    }
  }
  return { sizes, colours };
}

async function plainConditions(db: DbOrTx, f: CatalogueFilter, sales: SalesAt) {
  const text = await fullText(db, f.q);
  const { onSale: saleIds, charged } = await pricedBySales(db, sales);
  const onSale = saleIds.length === 0 ? sql`1 = 0` : sql`p.id IN (${sql.join(saleIds)})`;
  const gone = await unbuyable(db);
  const pairIn = (alias: string, pairs: string[]) =>
    pairs.length === 0
      ? sql`1 = 0`
      : sql`(${sql.ref(`${alias}.product_id`)} || ${'\u001f'} || ${sql.ref(`${alias}.value_key`)}) IN (${sql.join(pairs)})`;
  // A size facet row (alias) whose size is sold out in every colour of its product.
  const soldOut = (alias: string) => pairIn(alias, gone.sizes);
  const sellable = (alias: string) => (f.inStock ? sql`NOT ${soldOut(alias)}` : sql`1 = 1`);
  // A colour facet row (alias) whose colour has something to sell (what a colour filter and count mean).
  const colourHas = (alias: string) => sql`NOT ${pairIn(alias, gone.colours)}`;
  const conditions = (except?: FacetKind | 'price'): RawBuilder<unknown> => {
    const parts: RawBuilder<unknown>[] = [sql`1 = 1`];
    if (f.onSale) parts.push(onSale);
    if (text) {
      parts.push(sql`p.id IN (SELECT s.product_id FROM ${text.table}
        JOIN product_search_ids s ON s.rowid = ${text.rowid} WHERE ${text.match})`);
    }
    for (const [kind, field] of GROUPS) {
      const keys = [...new Set(f[field].map((v) => facetKey(kind, v)).filter((k) => k !== ''))];
      if (kind === except || keys.length === 0) continue;
      const usable = kind === 'size' ? sellable('g') : kind === 'color' ? colourHas('g') : sql`1 = 1`;
      parts.push(sql`EXISTS (SELECT 1 FROM product_facets g WHERE g.product_id = p.id AND g.kind = ${kind}
        AND g.value_key IN (${sql.join(keys)}) AND ${usable})`);
    }
    const sizesChosen = f.sizes.some((v) => facetKey('size', v) !== '');
    if (f.inStock && !sizesChosen && except !== 'size') {
      // No sizes at all, or one that can be bought.
      parts.push(sql`(NOT EXISTS (SELECT 1 FROM product_facets g WHERE g.product_id = p.id AND g.kind = 'size')
        OR EXISTS (SELECT 1 FROM product_facets g WHERE g.product_id = p.id AND g.kind = 'size'
          AND NOT ${soldOut('g')}))`);
    }
    if (except !== 'price' && (f.priceMin !== undefined || f.priceMax !== undefined)) {
      // Bounds are of the price the card shows (a sale's, while one runs for the product).
      const min = f.priceMin ?? Number.NEGATIVE_INFINITY;
      const max = f.priceMax ?? Number.POSITIVE_INFINITY;
      const within = [...charged].filter(([, price]) => price >= min && price <= max).map(([id]) => id);
      parts.push(within.length === 0 ? sql`1 = 0` : sql`p.id IN (${sql.join(within)})`);
    }
    return sql.join(parts, sql` AND `);
  };
  return { conditions, sellable, colourHas, onSale, charged };
}
