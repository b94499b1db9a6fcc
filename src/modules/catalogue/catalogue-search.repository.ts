import {
  type Expression,
  type ExpressionBuilder,
  expressionBuilder,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { lruGet, lruSet } from '../../core/lru.js';
import { holdsKeptJson } from '../../core/prebuilt-json.js';
import type { Database, DbOrTx, FacetKind, ProductsTable } from '../../db/database.js';
import { sizeKey } from '../../db/engine-sql.js';
import {
  type CatalogueFacets,
  type CatalogueSort,
  COUNT_CAP,
  type FacetOption,
  type ProductCard,
  type RelatedProducts,
  type SearchPage,
} from '../../shared/catalogue.js';
import { sizeRank } from '../../shared/sizes.js';
import { slugify } from '../../shared/slug.js';
import type { CatalogueFilter } from '../../shared/storefront-input.js';
import { storefrontRevision } from '../discounts/sale-timeline.js';
import { sizeSoldOut } from '../stock/sold-out.js';
import { soldOutStockOf } from '../stock/stock.repository.js';
import { cardsOf, cardsOfSlots, colourCard, markCardStock, withColourPhotos } from './card-cache.js';
import { runningSalesOf } from './card-sale.js';
import { type FullText, fullText } from './full-text.js';
import { cardPriceExpression, onSaleCondition, reachOf, type SaleReach } from './on-sale.js';
import { FACET_GROUPS, facetKey, facetKeys, filterKey, searchTerms } from './search-query.js';
import type { RawFacetCounts } from './snapshot/facet-snapshot.js';
import { type SnapshotOptions, snapshotFor, snapshotIfReady } from './snapshot/snapshot-per-database.js';
import { countOver, searchSnapshot } from './snapshot/snapshot-search.js';

type Eb = ExpressionBuilder<Database & { p: ProductsTable }, 'p'>;
type FilterPart = FacetKind | 'price';

const FACET_OPTION_LIMIT = 60;

/** Products whose text matches the shopper's words. */
function matchingIds(text: FullText) {
  return sql<string>`(SELECT s.product_id FROM ${text.table} JOIN product_search_ids s ON s.rowid = ${text.rowid}
    WHERE ${text.match})`;
}

/**
 * Whether the size of stock row `ss` (its spelling) cannot be bought in colour key `colour` (decision 0036):
 * the colour's own row for it is sold out, or it has none and the all-colours row is.
 */
function outInColour(colour: Expression<unknown> | RawBuilder<unknown>) {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM size_stock s WHERE s.product_id = ss.product_id AND s.size = ss.size
    AND ${sizeSoldOut('s')} AND (s.colour = ${colour} OR (s.colour = '' AND NOT EXISTS (SELECT 1 FROM size_stock m
      WHERE m.product_id = ss.product_id AND m.size = ss.size AND m.colour = ${colour}))))`;
}

/**
 * Whether the size in a product_facets row (`alias`) is sold out in every colour of its product (the
 * product's colour facets; the all-colours row alone for a product without colours): what "in stock only"
 * and a plain card's marks mean (stock.repository's soldOutStockOf, whose rule the snapshot applies).
 */
function soldOut(db: DbOrTx, alias: 'pf' | 'g' | 'a') {
  const facet = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`EXISTS (SELECT 1 FROM size_stock ss WHERE ss.product_id = ${facet('product_id')}
    AND ${sizeSoldOut('ss')} AND ${sizeKey(db, sql.ref('ss.size'))} = ${facet('value_key')}
    AND CASE WHEN EXISTS (SELECT 1 FROM product_facets c WHERE c.product_id = ss.product_id AND c.kind = 'color')
      THEN NOT EXISTS (SELECT 1 FROM product_facets c WHERE c.product_id = ss.product_id AND c.kind = 'color'
        AND NOT ${outInColour(sql.ref('c.value_key'))})
      ELSE ss.colour = '' END)`;
}

/**
 * Whether the colour in a product_facets row (`alias`) has nothing to sell: its product has sizes and none
 * is buyable in it. A colour filter finds, and a colour's count counts, only the others. Most products have
 * no sold-out row at all, which the partial index size_stock_sold_out answers first.
 */
function colourSoldOut(db: DbOrTx, alias: 'pf' | 'g') {
  const facet = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`(EXISTS (SELECT 1 FROM size_stock ss WHERE ss.product_id = ${facet('product_id')}
      AND ${sizeSoldOut('ss')})
    AND EXISTS (SELECT 1 FROM product_facets z WHERE z.product_id = ${facet('product_id')} AND z.kind = 'size')
    AND NOT EXISTS (SELECT 1 FROM product_facets z WHERE z.product_id = ${facet('product_id')} AND z.kind = 'size'
      AND NOT EXISTS (SELECT 1 FROM size_stock ss WHERE ss.product_id = z.product_id AND ${sizeSoldOut('ss')}
        AND ${sizeKey(db, sql.ref('ss.size'))} = z.value_key AND ${outInColour(facet('value_key'))})))`;
}

/**
 * Products that have sizes and every one of them sold out (in every colour). Driven by the sold-out
 * size_stock rows (their own index, migration 0021), which are few next to the catalogue.
 */
export function everySizeSoldOut(db: DbOrTx) {
  return sql<string>`(SELECT DISTINCT t.product_id FROM size_stock t
    WHERE t.on_hand <= t.reserved
      AND EXISTS (SELECT 1 FROM product_facets a WHERE a.product_id = t.product_id AND a.kind = 'size')
      AND NOT EXISTS (SELECT 1 FROM product_facets a WHERE a.product_id = t.product_id AND a.kind = 'size'
        AND NOT ${soldOut(db, 'a')}))`;
}

/**
 * The WHERE conditions for a filter: AND across groups, OR within a group (an empty group filters nothing).
 * `except` leaves one group out, which is how each facet's counts answer "what if I picked this too".
 * `facets` says how a facet group is tested: 'set' builds the group's product set once (right when the
 * products are scanned), 'lookup' probes the facet key per row (right when a text search drives the scan
 * and reaches few rows; building a common size's set took 35 ms at 100,000 products).
 */
function conditions(
  db: DbOrTx,
  eb: Eb,
  f: CatalogueFilter,
  text: FullText | null,
  except?: FilterPart | 'text',
  facets: 'set' | 'lookup' = 'set',
  reaches: readonly SaleReach[] = [],
): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (text && except !== 'text') out.push(eb('p.id', 'in', matchingIds(text)));
  if (f.onSale) out.push(onSaleCondition(eb, reaches));
  for (const { kind, field } of FACET_GROUPS) {
    if (kind === except) continue;
    const keys = facetKeys(kind, f[field]);
    if (keys.length === 0) continue;
    // In stock only, with sizes chosen: one of the chosen sizes can be bought. A chosen colour, always: one
    // that can be bought (a size of it, or a product without sizes).
    const chosen = eb
      .selectFrom('product_facets as pf')
      .where('pf.kind', '=', kind)
      .where('pf.value_key', 'in', keys)
      .$if(kind === 'size' && f.inStock, (q) => q.where(sql<SqlBool>`NOT ${soldOut(db, 'pf')}`))
      .$if(kind === 'color', (q) => q.where(sql<SqlBool>`NOT ${colourSoldOut(db, 'pf')}`));
    out.push(
      facets === 'set'
        ? eb('p.id', 'in', chosen.select('pf.product_id'))
        : eb.exists(chosen.select(sql.lit(1).as('one')).whereRef('pf.product_id', '=', 'p.id')),
    );
  }
  if (f.inStock && except !== 'size' && facetKeys('size', f.sizes).length === 0) {
    out.push(eb('p.id', 'not in', everySizeSoldOut(db)));
  }
  if (except !== 'price' && (f.priceMin !== undefined || f.priceMax !== undefined)) {
    // The price the card shows: a sale's, while one runs for it (decision 0037).
    const price = cardPriceExpression(db, eb, reaches);
    if (f.priceMin !== undefined) out.push(eb(price, '>=', f.priceMin));
    if (f.priceMax !== undefined) out.push(eb(price, '<=', f.priceMax));
  }
  return out;
}

/** Whether the filter narrows anything once `except` is left out (mirrors conditions()). */
function hasConditions(f: CatalogueFilter, except?: FilterPart): boolean {
  if (searchTerms(f.q)) return true;
  if (f.onSale) return true;
  if (FACET_GROUPS.some((g) => g.kind !== except && facetKeys(g.kind, f[g.field]).length > 0)) return true;
  if (f.inStock && except !== 'size') return true;
  return except !== 'price' && (f.priceMin !== undefined || f.priceMax !== undefined);
}

function where(
  db: DbOrTx,
  eb: Eb,
  f: CatalogueFilter,
  text: FullText | null,
  except?: FilterPart | 'text',
  facets: 'set' | 'lookup' = 'set',
  reaches: readonly SaleReach[] = [],
): Expression<SqlBool> {
  const parts = conditions(db, eb, f, text, except, facets, reaches);
  return parts.length === 0 ? sql<SqlBool>`1 = 1` : eb.and(parts);
}

/**
 * How many matches the SQL listing ranks, which answers only while no snapshot of the current revision
 * exists (decision 27; the snapshot ranks every match): the most recently indexed ones (a product is
 * indexed when it is added and again whenever its text, sizes or colours change; migration 0010). A search
 * with at most this many matches is ranked whole; beyond it, the newest 1,000 matches are ranked and the
 * older ones listed after them, newest first, so a broad word costs the same at any catalogue size.
 */
export const RANK_WINDOW = 1_000;

/**
 * The matches of a text search as products_fts rows, narrowed by the other filters when there are any.
 * CROSS JOIN keeps the full-text index as the outer loop, so rows come in its rowid order and a LIMIT
 * stops the scan early. The product id is looked up only for the rows a page keeps.
 */
function matchSource(
  db: DbOrTx,
  f: CatalogueFilter,
  text: FullText,
  textOnly: boolean,
  reaches: readonly SaleReach[],
) {
  if (textOnly) return sql`FROM ${text.table} WHERE ${text.match}`;
  const eb = expressionBuilder<Database & { p: ProductsTable }, 'p'>();
  const filters = where(db, eb, f, text, 'text', 'lookup', reaches);
  return sql`FROM ${text.table} ${text.join} product_search_ids AS s ON s.rowid = ${text.rowid}
      ${text.join} products AS p ON p.id = s.product_id
      WHERE ${text.match} AND ${filters}`;
}

/**
 * A page in relevance order: the newest `window` matches ranked by the fields the words are in (decision
 * 27; ties newest first, so pages never overlap or skip a product), then every older match, newest first.
 */
async function rankedIds(
  db: DbOrTx,
  text: FullText,
  source: ReturnType<typeof matchSource>,
  opts: { offset: number; limit: number; window: number },
): Promise<string[]> {
  const rowids: number[] = [];
  if (opts.offset < opts.window) {
    const take = Math.min(opts.limit, opts.window - opts.offset);
    const ranked = await sql<{ rowid: number }>`SELECT w.rowid FROM (
        SELECT ${text.rowid} AS rowid, ${text.rank} AS rank ${source}
        ORDER BY ${text.rowid} DESC LIMIT ${opts.window}
      ) w ORDER BY w.rank, w.rowid DESC LIMIT ${take} OFFSET ${opts.offset}`.execute(db);
    rowids.push(...ranked.rows.map((r) => r.rowid));
    // A window that is not full holds every match: nothing older is left to list.
    if (ranked.rows.length < take) return productIds(db, rowids);
  }
  const rest = opts.limit - rowids.length;
  if (rest > 0) {
    const older = await sql<{ rowid: number }>`SELECT ${text.rowid} AS rowid ${source}
      ORDER BY ${text.rowid} DESC LIMIT ${rest} OFFSET ${Math.max(opts.offset, opts.window)}`.execute(db);
    rowids.push(...older.rows.map((r) => r.rowid));
  }
  return productIds(db, rowids);
}

/** The product ids of full-text rowids, in the rowids' order. */
async function productIds(db: DbOrTx, rowids: number[]): Promise<string[]> {
  if (rowids.length === 0) return [];
  const rows = await db
    .selectFrom('product_search_ids')
    .select(['rowid', 'product_id'])
    .where('rowid', 'in', rowids)
    .execute();
  const byRowid = new Map(rows.map((r) => [r.rowid, r.product_id]));
  return rowids.flatMap((r) => byRowid.get(r) ?? []);
}

export type SearchOptions = {
  /** The storefront revision the request already read (see KnownRevision). */
  revision?: string | null | undefined;
  sort?: CatalogueSort | undefined;
  offset: number;
  limit: number;
  rankWindow?: number;
  /** How the facet snapshot, which answers the listing, loads. */
  snapshot?: SnapshotOptions;
};

/**
 * A page of product cards, each with its sold-out sizes (and marked sold out when every size is). The
 * page's ids, the count and the marks come from the facet snapshot when it is of the current revision (decision 26), else from SQL (while a
 * first load runs in a worker); then only the page's cards are read.
 */
export async function searchProducts(
  db: DbOrTx,
  f: CatalogueFilter,
  opts: SearchOptions,
): Promise<SearchPage> {
  const hasText = searchTerms(f.q) !== null;
  const sort: CatalogueSort =
    opts.sort === 'relevance' && !hasText ? 'featured' : (opts.sort ?? (hasText ? 'relevance' : 'featured'));
  const revision = opts.revision ?? (await storefrontRevision(db));
  const [snap, reaches] = await Promise.all([
    snapshotIfReady(db, revision, opts.snapshot),
    saleReaches(db, revision, f, sort),
  ]);
  const window = opts.rankWindow ?? RANK_WINDOW;
  let listed: number;
  let count: number;
  let rows: ProductCard[];
  // A colour filter's cards show the colour they were found by (card-cache.ts colourCard).
  const colours = facetKeys('color', f.colors);
  if (snap?.revision === revision) {
    const page = await searchSnapshot(db, snap, f, {
      sort,
      offset: opts.offset,
      limit: opts.limit,
      reaches,
    });
    // Kept with their sold-out sizes (card-cache.ts): nothing to mark here.
    rows = await cardsOfSlots(db, revision, snap, page.slots);
    if (colours.length > 0) {
      await withColourPhotos(db, rows, colours);
      rows = rows.map((card) => colourCard(card, colours));
    }
    listed = page.slots.length;
    count = page.count;
  } else {
    const page = await searchBySql(db, f, { ...opts, sort, rankWindow: window, reaches });
    const cards = await cardsOf(db, revision, page.ids);
    if (colours.length > 0) await withColourPhotos(db, cards, colours);
    const stock = await soldOutStockOf(
      db,
      cards.map((c) => c.id),
    );
    rows = cards.map((card) => {
      const marked = markCardStock(card, stock.get(card.id));
      return colours.length > 0 ? colourCard(marked, colours, card) : marked;
    });
    listed = page.ids.length;
    count = page.count;
  }
  const next = opts.offset + listed;
  const capped = count > COUNT_CAP;
  // Past the cap the count no longer says where the end is: a full page means there may be more.
  const more = capped ? listed === opts.limit : next < count;
  // The cards' JSON is kept with them (card-cache.ts): an answer over HTTP is put together from it.
  return holdsKeptJson({
    items: holdsKeptJson(rows),
    total: Math.min(count, COUNT_CAP),
    totalCapped: capped,
    nextOffset: more && listed > 0 ? next : null,
  });
}

/**
 * The page's ids and the count (up to one past the cap) in SQL, as the store chose them before the snapshot
 * answered listings; beyond the rank window, the window is of the matches that pass the other filters.
 * The ids are chosen by a lean query (no card columns, whose media lookups would otherwise run for every
 * candidate before the sort).
 */
export async function searchBySql(
  db: DbOrTx,
  f: CatalogueFilter,
  opts: {
    sort: CatalogueSort;
    offset: number;
    limit: number;
    rankWindow: number;
    /** The running sales' reach, for On sale (on-sale.ts); none: nothing is on sale. */
    reaches?: readonly SaleReach[];
  },
): Promise<{ ids: string[]; count: number }> {
  const reaches = opts.reaches ?? [];
  const text = await fullText(db, f.q);
  const sort = opts.sort === 'relevance' && !text ? 'featured' : opts.sort;
  // Only words typed, no other filter: the full-text index alone answers the page and the count.
  const textOnly = text !== null && !hasConditions({ ...f, q: undefined });

  // With words typed the full-text index drives the page (when ranked) and the count.
  const source = text ? matchSource(db, f, text, textOnly, reaches) : null;
  const choosePage = async (): Promise<string[]> => {
    if (sort === 'relevance' && source && text) {
      return rankedIds(db, text, source, {
        offset: opts.offset,
        limit: opts.limit,
        window: opts.rankWindow,
      });
    }
    let query = db
      .selectFrom('products as p')
      .select('p.id')
      .where((eb) => where(db, eb, f, text, undefined, 'set', reaches));
    if (sort === 'newest') query = query.orderBy('p.created_at', 'desc');
    else if (sort === 'price-asc' || sort === 'price-desc') {
      query = query.orderBy(
        (eb) => cardPriceExpression(db, eb, reaches),
        sort === 'price-asc' ? 'asc' : 'desc',
      );
    } else query = query.orderBy('p.page_order');
    // The id breaks every tie, so pages never overlap or skip a product.
    return (await query.orderBy('p.id').limit(opts.limit).offset(opts.offset).execute()).map((r) => r.id);
  };
  // Up to one past the cap: the scan stops there (a broad word with a filter read every match before).
  const countAll = async (): Promise<number> => {
    const upTo = COUNT_CAP + 1;
    const rows = source
      ? sql`SELECT 1 AS one ${source} LIMIT ${upTo}`
      : sql`SELECT 1 AS one FROM products AS p
          WHERE ${where(db, expressionBuilder<Database & { p: ProductsTable }, 'p'>(), f, text, undefined, 'set', reaches)} LIMIT ${upTo}`;
    const counted = await sql<{ n: number }>`SELECT count(*) AS n FROM (${rows}) AS capped`.execute(db);
    return Number(counted.rows[0]?.n ?? 0);
  };
  // Side by side: on PostgreSQL each takes a pooled connection of its own, so a broad word's count (15 ms
  // for 34,648 matches at 100,000 products, every match read from the table) no longer adds to its page.
  // SQLite, and a transaction's one connection, run them one after the other as before.
  const [ids, count] = await Promise.all([choosePage(), countAll()]);
  return { ids, count };
}

/** Facet counts, and whether they are of the storefront revision this request read. */
export type FacetAnswer = {
  facets: CatalogueFacets;
  /**
   * False when an older snapshot counted them while a newer one loads in a worker
   * (snapshot/snapshot-per-database.ts): right for that older revision only, so no cache may keep them under
   * the current one.
   */
  upToDate: boolean;
};

/**
 * Counts per option of each facet group for the current search and the other groups' choices, so each
 * option says how many products picking it would give. Chosen options are always listed, even at 0.
 * Counted in memory from a snapshot of the catalogue's facets (facet-snapshot.ts).
 */
export async function facetCounts(
  db: DbOrTx,
  f: CatalogueFilter,
  opts: SnapshotOptions & KnownRevision = {},
): Promise<FacetAnswer> {
  const revision = opts.revision ?? (await storefrontRevision(db));
  const key = filterKey(f);
  let cache = facetCaches.get(db);
  if (!cache) {
    cache = new Map();
    facetCaches.set(db, cache);
  }
  const hit = lruGet(cache, key);
  if (hit && hit.revision === revision) return { facets: hit.value, upToDate: true };
  const snap = await snapshotFor(db, revision, opts);
  // The snapshot's own revision: an older one (a newer loads) counts what was on sale then.
  const running = await runningSalesOf(db, snap.revision);
  const counted = await countOver(db, snap, f, running ? reachOf(running.sales) : []);
  const value = assembleFacets(counted, f);
  // Kept under the revision of the snapshot that counted it, so an older snapshot's answer (given while a
  // newer one loads) is never taken for the current revision's.
  lruSet(cache, key, { revision: counted.revision, value }, FACET_CACHE_SIZE);
  return { facets: value, upToDate: counted.revision === revision };
}

/**
 * Popular filter combinations repeat, so answers are kept per database, least recently used first out, and
 * dropped as soon as the storefront revision (moved by triggers on every product change) differs.
 */
const FACET_CACHE_SIZE = 500;
const facetCaches = new WeakMap<object, Map<string, { revision: string; value: CatalogueFacets }>>();

/**
 * The storefront revision, when the request has read it already from the process's revision reader (the
 * same committed value, read without building a query). Without it, or when that read failed (null), the
 * revision is read here; inside a transaction that is the transaction's own.
 */
type KnownRevision = { revision?: string | null | undefined };

/**
 * The running sales' reach at `revision`'s instant, when the listing depends on it: On sale, a price bound
 * or a price sort, all of the price a card shows (no read otherwise).
 */
async function saleReaches(
  db: DbOrTx,
  revision: string,
  f: CatalogueFilter,
  sort: CatalogueSort,
): Promise<SaleReach[]> {
  const priced =
    f.priceMin !== undefined || f.priceMax !== undefined || sort === 'price-asc' || sort === 'price-desc';
  if (!f.onSale && !priced) return [];
  const running = await runningSalesOf(db, revision);
  return running ? reachOf(running.sales) : [];
}

/**
 * The shape shoppers get: by count (then key), at most 60 per group, chosen options always, sizes in size
 * order. Sorts `raw`'s lists where they are: each count makes its own.
 */
export function assembleFacets(raw: RawFacetCounts, f: CatalogueFilter): CatalogueFacets {
  const result = {
    manufacturer: [],
    size: [],
    color: [],
    tag: [],
    price: raw.price,
    onSale: raw.onSale,
  } as CatalogueFacets;
  for (const { kind, field } of FACET_GROUPS) {
    const rows = raw.counted.get(kind) ?? [];
    rows.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
    const shown = Math.min(rows.length, FACET_OPTION_LIMIT);
    const options: FacetOption[] = [];
    for (let i = 0; i < shown; i++) {
      const r = rows[i] as (typeof rows)[number];
      options.push({ value: r.value, count: r.count });
    }
    const chosen = f[field];
    if (chosen.length > 0) {
      const seen = new Set(rows.slice(0, shown).map((r) => r.key));
      for (const value of chosen) {
        const key = facetKey(kind, value);
        if (key === '' || seen.has(key)) continue;
        const hit = rows.find((r) => r.key === key);
        options.push({ value: hit?.value ?? value.trim(), count: hit?.count ?? 0 });
        seen.add(key);
      }
    }
    result[kind] = kind === 'size' ? inSizeOrder(options) : options;
  }
  return result;
}

/** Sizes as a shop lists them (sizeRank: XS before S before M), others after them by name. */
function inSizeOrder(options: FacetOption[]): FacetOption[] {
  return options
    .map((o) => ({ o, rank: sizeRank(o.value) }))
    .sort((a, b) => a.rank - b.rank || a.o.value.localeCompare(b.o.value))
    .map(({ o }) => o);
}

/**
 * Up to three other products: most shared tags first, then most shared colours, then any others. The
 * heading says which kind of match the first one is (tags, colours or other products). Their cards are the
 * listings' own (cardsOf: priced at the running sales of `revision`), without their sold-out marks.
 */
export async function relatedProducts(
  db: DbOrTx,
  id: string,
  opts: KnownRevision & { limit?: number } = {},
): Promise<RelatedProducts> {
  const limit = opts.limit ?? 3;
  const scored = await db
    .selectFrom('product_facets as f')
    .innerJoin('product_facets as mine', (join) =>
      join.onRef('mine.kind', '=', 'f.kind').onRef('mine.value_key', '=', 'f.value_key'),
    )
    .select([
      'f.product_id',
      sql<number>`sum(CASE WHEN f.kind = 'tag' THEN 1 ELSE 0 END)`.as('tags'),
      sql<number>`sum(CASE WHEN f.kind = 'color' THEN 1 ELSE 0 END)`.as('colors'),
    ])
    .where('mine.product_id', '=', id)
    .where('mine.kind', 'in', ['tag', 'color'])
    .where('f.product_id', '<>', id)
    .groupBy('f.product_id')
    .orderBy('tags', 'desc')
    .orderBy('colors', 'desc')
    .orderBy('f.product_id')
    .limit(limit)
    .execute();

  const ids = scored.map((s) => s.product_id);
  if (ids.length < limit) {
    const others = await db
      .selectFrom('products')
      .select('id')
      .where('id', '<>', id)
      .$if(ids.length > 0, (q) => q.where('id', 'not in', ids))
      .orderBy(sql`random()`)
      .limit(limit - ids.length)
      .execute();
    ids.push(...others.map((o) => o.id));
  }
  const first = scored[0];
  const heading: RelatedProducts['heading'] =
    first && Number(first.tags) > 0
      ? 'Related Products'
      : first && Number(first.colors) > 0
        ? 'Similar Products'
        : 'You May Also Like';
  if (ids.length === 0) return { heading, items: [] };
  const revision = opts.revision ?? (await storefrontRevision(db));
  return { heading, items: await cardsOf(db, revision, ids) };
}

export async function findProductIdBySlug(db: DbOrTx, slug: string): Promise<string | null> {
  const normalized = slugify(slug);
  const byId = await db.selectFrom('products').select('id').where('id', '=', slug.trim()).executeTakeFirst();
  if (byId) return byId.id;
  const bySlug = await db
    .selectFrom('products')
    .select('id')
    .where('slug', '=', normalized)
    .where('slug', '<>', '')
    .orderBy('page_order')
    .orderBy('id')
    .executeTakeFirst();
  return bySlug?.id ?? null;
}
