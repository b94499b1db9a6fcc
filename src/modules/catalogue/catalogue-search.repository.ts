import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, DbOrTx, FacetKind, ProductsTable } from '../../db/database.js';
import type {
  CatalogueFacets,
  CatalogueSort,
  FacetOption,
  RelatedProducts,
  SearchPage,
} from '../../shared/catalogue.js';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import { slugify } from '../../shared/slug.js';
import { cardColumns, toCard } from './catalogue.repository.js';
import { facetKey, toFtsQuery } from './search-query.js';

type Eb = ExpressionBuilder<Database & { p: ProductsTable }, 'p'>;
type FilterPart = FacetKind | 'price';

const FACET_OPTION_LIMIT = 60;

const groups: Array<{ kind: FacetKind; field: 'manufacturers' | 'sizes' | 'colors' | 'tags' }> = [
  { kind: 'manufacturer', field: 'manufacturers' },
  { kind: 'size', field: 'sizes' },
  { kind: 'color', field: 'colors' },
  { kind: 'tag', field: 'tags' },
];

function keysFor(kind: FacetKind, values: string[]): string[] {
  return [...new Set(values.map((v) => facetKey(kind, v)).filter((v) => v !== ''))];
}

/** Products whose text matches the shopper's words (an empty list when nothing searchable was typed). */
function matchingIds(match: string) {
  return sql<string>`(SELECT s.product_id FROM products_fts JOIN product_search_ids s ON s.rowid = products_fts.rowid
    WHERE products_fts MATCH ${match})`;
}

/**
 * The WHERE conditions for a filter: AND across groups, OR within a group (an empty group filters nothing).
 * `except` leaves one group out, which is how each facet's counts answer "what if I picked this too".
 */
function conditions(eb: Eb, f: CatalogueFilter, except?: FilterPart): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  const match = toFtsQuery(f.q);
  if (match) out.push(eb('p.id', 'in', matchingIds(match)));
  for (const { kind, field } of groups) {
    if (kind === except) continue;
    const keys = keysFor(kind, f[field]);
    if (keys.length === 0) continue;
    out.push(
      eb(
        'p.id',
        'in',
        eb
          .selectFrom('product_facets')
          .select('product_id')
          .where('kind', '=', kind)
          .where('value_key', 'in', keys),
      ),
    );
  }
  if (except !== 'price') {
    if (f.priceMin !== undefined) out.push(eb('p.price_minor', '>=', f.priceMin));
    if (f.priceMax !== undefined) out.push(eb('p.price_minor', '<=', f.priceMax));
  }
  return out;
}

function where(eb: Eb, f: CatalogueFilter, except?: FilterPart): Expression<SqlBool> {
  const parts = conditions(eb, f, except);
  return parts.length === 0 ? sql<SqlBool>`1` : eb.and(parts);
}

export async function searchProducts(
  db: DbOrTx,
  f: CatalogueFilter,
  opts: { sort?: CatalogueSort | undefined; offset: number; limit: number },
): Promise<SearchPage> {
  const match = toFtsQuery(f.q);
  const sort: CatalogueSort =
    opts.sort === 'relevance' && !match ? 'featured' : (opts.sort ?? (match ? 'relevance' : 'featured'));

  let query = cardColumns(db).where((eb) => where(eb, f));
  switch (sort) {
    case 'relevance':
      // bm25 weights: a word in the title counts most, then tags and maker, then the description.
      query = query.orderBy(
        sql`(SELECT bm25(products_fts, 10.0, 1.0, 4.0, 6.0) FROM products_fts JOIN product_search_ids s
             ON s.rowid = products_fts.rowid WHERE s.product_id = p.id AND products_fts MATCH ${match})`,
      );
      query = query.orderBy('p.page_order');
      break;
    case 'newest':
      query = query.orderBy('p.created_at', 'desc');
      break;
    case 'price-asc':
      query = query.orderBy('p.price_minor', 'asc');
      break;
    case 'price-desc':
      query = query.orderBy('p.price_minor', 'desc');
      break;
    default:
      query = query.orderBy('p.page_order');
  }
  // The id breaks every tie, so pages never overlap or skip a product.
  const rows = await query.orderBy('p.id').limit(opts.limit).offset(opts.offset).execute();

  const total = await db
    .selectFrom('products as p')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => where(eb, f))
    .executeTakeFirstOrThrow();
  const count = Number(total.n);
  const next = opts.offset + rows.length;
  return { items: rows.map(toCard), total: count, nextOffset: next < count && rows.length > 0 ? next : null };
}

/**
 * Counts per option of each facet group for the current search and the other groups' choices, so each
 * option says how many products picking it would give. Chosen options are always listed, even at 0.
 */
export async function facetCounts(db: DbOrTx, f: CatalogueFilter): Promise<CatalogueFacets> {
  const result = { manufacturer: [], size: [], color: [], tag: [], price: null } as CatalogueFacets;
  for (const { kind, field } of groups) {
    const rows = await db
      .selectFrom('product_facets as f')
      .select([
        'f.value_key',
        sql<string>`min(f.value)`.as('value'),
        (eb) => eb.fn.countAll<number>().as('n'),
      ])
      .where('f.kind', '=', kind)
      .where('f.product_id', 'in', (eb) =>
        eb
          .selectFrom('products as p')
          .select('p.id')
          .where((e) => where(e as unknown as Eb, f, kind)),
      )
      .groupBy('f.value_key')
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('f.value_key')
      .limit(FACET_OPTION_LIMIT)
      .execute();
    const options: FacetOption[] = rows.map((r) => ({ value: r.value, count: Number(r.n) }));
    const seen = new Set(rows.map((r) => r.value_key));
    for (const chosen of f[field]) {
      if (!seen.has(facetKey(kind, chosen)) && chosen.trim() !== '') {
        options.push({ value: chosen.trim(), count: 0 });
        seen.add(facetKey(kind, chosen));
      }
    }
    if (kind === 'size')
      options.sort((a, b) => sizeRank(a.value) - sizeRank(b.value) || a.value.localeCompare(b.value));
    result[kind] = options;
  }
  const price = await db
    .selectFrom('products as p')
    .select([
      sql<number | null>`min(p.price_minor)`.as('min'),
      sql<number | null>`max(p.price_minor)`.as('max'),
    ])
    .where((eb) => where(eb, f, 'price'))
    .executeTakeFirstOrThrow();
  result.price = price.min === null || price.max === null ? null : { min: price.min, max: price.max };
  return result;
}

const SIZE_ORDER = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];
function sizeRank(size: string): number {
  const i = SIZE_ORDER.indexOf(size.toUpperCase());
  return i === -1 ? SIZE_ORDER.length : i;
}

/**
 * Up to three other products: most shared tags first, then most shared colours, then any others. The
 * heading says which kind of match the first one is, as the original did.
 */
export async function relatedProducts(db: DbOrTx, id: string, limit = 3): Promise<RelatedProducts> {
  const scored = await db
    .selectFrom('product_facets as f')
    .innerJoin('product_facets as mine', (join) =>
      join.onRef('mine.kind', '=', 'f.kind').onRef('mine.value_key', '=', 'f.value_key'),
    )
    .select([
      'f.product_id',
      sql<number>`sum(f.kind = 'tag')`.as('tags'),
      sql<number>`sum(f.kind = 'color')`.as('colors'),
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
  const cards = await cardColumns(db).where('p.id', 'in', ids).execute();
  const byId = new Map(cards.map((c) => [c.id, toCard(c)]));
  return { heading, items: ids.flatMap((i) => byId.get(i) ?? []) };
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
