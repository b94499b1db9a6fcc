import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseSource } from '../../../db/database-source.js';
import type { CardColour, CatalogueSort, ProductCard, SearchPage } from '../../../shared/catalogue.js';
import { colourKey } from '../../../shared/colours.js';
import { type Discount, isRunning } from '../../../shared/discounts.js';
import type { CatalogueFilter } from '../../../shared/storefront-input.js';
import {
  facetCountsBySql,
  matchingIdsBySql,
  priceOrderBySql,
} from '../../../test-support/facet-counts-oracle.js';
import { insertProducts } from '../../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../../test-support/test-store.js';
import { soldOutStockOf } from '../../stock/stock.repository.js';
import { cardColumns, toCard } from '../catalogue.repository.js';
import { assembleFacets, facetCounts, searchBySql, searchProducts } from '../catalogue-search.repository.js';
import { reachOf } from '../on-sale.js';
import { facetKeys, searchTerms } from '../search-query.js';
import { readFacetLoadInWorker } from './facet-load-in-worker.js';
import {
  countFacets,
  type FacetSnapshot,
  idOfSlot,
  loadFacetSnapshot,
  refreshFacetSnapshot,
  snapshotFromLoad,
} from './facet-snapshot.js';
import { saleSlots } from './sale-slots.js';
import { countBits } from './slot-sets.js';
import { searchSnapshot } from './snapshot-search.js';
import { matchesOf, textMatch } from './snapshot-text.js';

/** The snapshot's counts for a filter, its words read as the listing reads them. */
const countedFacets = async (db: TestStore['handle']['db'], snap: FacetSnapshot, f: CatalogueFilter) => {
  const text = await textMatch(db, snap, f.q);
  return countFacets(snap, f, text && matchesOf(snap, text));
};

/**
 * The in-memory facet counts against the plain SQL ones, for generated catalogues (spellings that differ
 * only in case, compatibility form (ＬＡＷＮ) or spaces, products without facets, shared and unique tags)
 * and generated filters (text, chosen values that exist or not, in any case, price bounds, in stock only)
 * with generated stock (sold out, held to the last unit, plenty, rows for sizes a product no longer has,
 * two spellings of one size). Big enough
 * catalogues turn common values into bitsets and keep rare ones as lists, so both kinds of set are compared.
 * A load read in a worker thread (and moved to this one as arrays) must make the very snapshot a load on
 * this thread makes, sold-out sizes included.
 */

const MAKERS = ['Noor Mahal', 'noor mahal', 'Sehar Looms', 'Zarnigar', ' Zarnigar ', ''];
const SIZES = ['S', 'm', 'M', 'L', 'xl', 'XXL', '42'];
const COLOURS = ['Mint', 'mint', 'Ivory', 'Gold', 'Émeraude', 'ÉMERAUDE', 'Blush Pink'];
const TAGS = [
  'lawn',
  'Lawn',
  'ＬＡＷＮ',
  'silk',
  'İpek',
  'ipek',
  'wedding',
  'eid',
  'men',
  'women',
  'unique-1',
  'unique-2',
  'unique-3',
];
const WORDS = ['silk', 'kurta', 'ＫＵＲＴＡ', 'lawn', 'velvet', 'shawl', 'emerald', 'sherwani', 'ﬁne'];

/**
 * Stock rows of a product: for all colours ('') or for one colour, its own or one it does not have (a
 * colour taken off), in any spelling of the colour; sold out when on hand <= held. Any size, also ones the
 * product lacks.
 */
const stockOf = (colours: string[]) =>
  fc.array(
    fc.record({
      colour: fc.constantFrom('', '', ...colours, 'Teal'),
      size: fc.constantFrom(...SIZES),
      onHand: fc.integer({ min: 0, max: 2 }),
      held: fc.integer({ min: 0, max: 2 }),
    }),
    { maxLength: 6 },
  );

const product = fc
  .record({
    title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    manufacturer: fc.constantFrom(...MAKERS),
    sizes: fc.subarray(SIZES),
    colors: fc.subarray(COLOURS),
    tags: fc.subarray(TAGS),
    price: fc.integer({ min: 0, max: 20_000 }),
    /** Few values, so the listing orders meet ties (broken by id); halves, as page order is a decimal. */
    pageOrder: fc.integer({ min: 0, max: 4 }).map((n) => n / 2),
    day: fc.integer({ min: 1, max: 3 }),
  })
  .chain((p) => stockOf(p.colors).map((stock): ProductSpec => ({ ...p, stock })));

/**
 * Sales of every reach (decision 0037): every product, chosen products, tags, chosen colours of them; some
 * running at SALE_NOW, some scheduled or over. Tags written as the rules and the facets fold them alike
 * (covers() compares in lower case, the facets fold: ＬＡＷＮ and İpek would differ).
 */
const SALE_NOW = new Date('2026-12-01T12:00:00.000Z');
const sale: fc.Arbitrary<Discount> = fc
  .record({
    id: fc.uuid(),
    value: fc.oneof(
      fc.integer({ min: 1, max: 90 }).map((percent) => ({ type: 'percent' as const, percent })),
      // A fixed amount reaches only products of its own currency, and never takes a price below zero.
      fc
        .record({ amountMinor: fc.integer({ min: 1, max: 25_000 }), currency: fc.constantFrom('usd', 'pkr') })
        .map((v) => ({ type: 'fixed' as const, ...v })),
    ),
    products: fc.subarray(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'], { maxLength: 3 }),
    tags: fc.subarray(['silk', 'wedding', 'eid', 'men', 'women', 'unique-1'], { maxLength: 2 }),
    colours: fc.subarray(['mint', 'ivory', 'gold', 'emeraude', 'blush pink', 'teal'], { maxLength: 2 }),
    when: fc.constantFrom('running', 'running', 'scheduled', 'over'),
  })
  .map((r) => ({
    id: r.id,
    kind: 'sale' as const,
    name: 'Sale',
    code: null,
    value: r.value,
    target: 'items' as const,
    scope: {
      ...(r.products.length > 0 ? { products: r.products } : {}),
      ...(r.tags.length > 0 ? { tags: r.tags } : {}),
      ...(r.colours.length > 0 ? { colours: r.colours.map(colourKey) } : {}),
    },
    startsAt: r.when === 'scheduled' ? '2026-12-02T00:00:00.000Z' : '2026-11-30T00:00:00.000Z',
    endsAt: r.when === 'over' ? '2026-12-01T00:00:00.000Z' : null,
    endedAt: null,
    minOrderMinor: null,
    maxUses: null,
    maxUsesPerEmail: null,
    uses: 0,
    createdAt: '2026-11-01T00:00:00.000Z',
  }));

const pick = <T>(values: readonly T[]) => fc.subarray([...values], { maxLength: 3 });
const filter: fc.Arbitrary<CatalogueFilter> = fc.record({
  q: fc.option(fc.constantFrom(...WORDS, 'sil', 'ku', 'velvet shawl', 'fine', 'nothing-like-this'), {
    nil: undefined,
  }),
  manufacturers: pick([...MAKERS, 'NOOR MAHAL', 'Unknown House']),
  sizes: pick([...SIZES, 's', 'XXXS']),
  colors: pick([...COLOURS, 'IVORY', 'émeraude', 'Teal']),
  tags: pick([...TAGS, 'SILK', 'IPEK', 'none']),
  priceMin: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }),
  priceMax: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }),
  inStock: fc.boolean(),
});

/** Filters that still find products (every group chosen at once mostly finds none): sizes, maybe a word. */
const broadFilter: fc.Arbitrary<CatalogueFilter> = fc.record({
  q: fc.option(fc.constantFrom(...WORDS), { nil: undefined, freq: 2 }),
  manufacturers: fc.constant([]),
  sizes: pick([...SIZES, 's']),
  colors: fc.constant([]),
  tags: fc.constant([]),
  inStock: fc.boolean(),
});

/**
 * Each property runs dozens of generated catalogues through both engines' SQL: 5-20 s on a shared 2-core
 * machine while other test files run beside it, past the default 20 s at the worst moments.
 */
const PROPERTY_TIMEOUT_MS = 120_000;

const NONE: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };

/** Every page from the start, joined (what infinite scroll shows), and the totals the pages gave. */
async function scrolled(page: (offset: number) => Promise<SearchPage>) {
  const ids: string[] = [];
  const cards: SearchPage['items'] = [];
  const totals = new Set<number>();
  let offset: number | null = 0;
  while (offset !== null) {
    const p = await page(offset);
    ids.push(...p.items.map((c) => c.id));
    cards.push(...p.items);
    totals.add(p.total);
    offset = p.nextOffset;
  }
  return { ids, cards, totals: [...totals] };
}

describe('facet counts from the in-memory snapshot', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store.cleanup());

  async function replaceCatalogue(rows: ProductSpec[]) {
    await store.handle.db.deleteFrom('products').execute();
    await insertProducts(
      store.handle.db,
      rows.map((p, i) => ({ id: `p${i}`, ...columns(p) })),
    );
    for (const [i, p] of rows.entries()) await putStock(`p${i}`, p.stock);
  }

  async function putStock(id: string, stock: ProductSpec['stock']) {
    await store.handle.db.deleteFrom('size_stock').where('product_id', '=', id).execute();
    // One row per pool and spelling of a size (the table's key): the last one given wins.
    const rows = new Map(
      stock.map((r) => [`${colourKey(r.colour)}\u001f${r.size}`, { ...r, colour: colourKey(r.colour) }]),
    );
    const values = [...rows.values()].map((r) => ({
      product_id: id,
      colour: r.colour,
      size: r.size,
      on_hand: r.onHand,
      reserved: r.held,
    }));
    if (values.length > 0) await store.handle.db.insertInto('size_stock').values(values).execute();
  }

  it(
    'answers exactly as SQL does, for any catalogue and filter',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(product, { minLength: 0, maxLength: 120 }),
          fc.array(fc.oneof(filter, broadFilter), { minLength: 1, maxLength: 8 }),
          async (rows, filters) => {
            await replaceCatalogue(rows);
            const snap = await loadFacetSnapshot(store.handle.db, 'test');
            for (const f of filters) {
              const fromMemory = assembleFacets(await countedFacets(store.handle.db, snap, f), f);
              const fromSql = assembleFacets(await facetCountsBySql(store.handle.db, f), f);
              expect(fromMemory).toEqual(fromSql);
            }
          },
        ),
        { numRuns: 60 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'finds, counts, bounds and sorts by the prices the sale rules charge, in memory and in SQL',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            product.chain((p) =>
              fc
                .constantFrom('usd', 'usd', 'pkr')
                .map((currency) => ({ ...p, price: p.price + 100, currency })),
            ),
            { minLength: 0, maxLength: 60 },
          ),
          fc.array(sale, { minLength: 0, maxLength: 4 }),
          fc.array(
            fc.tuple(fc.oneof(filter, broadFilter), fc.boolean()).map(([f, onSale]) => ({ ...f, onSale })),
            { minLength: 1, maxLength: 6 },
          ),
          async (rows, sales, filters) => {
            await replaceCatalogue(rows);
            const snap = await loadFacetSnapshot(store.handle.db, 'test');
            const running = sales.filter((s) => isRunning(s, SALE_NOW));
            const reaches = reachOf(running);
            const { onSale, prices } = await saleSlots(store.handle.db, snap, reaches);
            for (const f of filters) {
              const text = await textMatch(store.handle.db, snap, f.q);
              const fromMemory = assembleFacets(
                countFacets(snap, f, text && matchesOf(snap, text), onSale, prices),
                f,
              );
              const oracle = { sales, now: SALE_NOW };
              const fromSql = assembleFacets(await facetCountsBySql(store.handle.db, f, oracle), f);
              expect(fromMemory).toEqual(fromSql);
              const expected = await matchingIdsBySql(store.handle.db, f, oracle);
              const bySql = await searchBySql(store.handle.db, f, {
                sort: 'newest',
                offset: 0,
                limit: 10_000,
                rankWindow: 1_000,
                reaches,
              });
              expect(bySql.ids.sort()).toEqual(expected);
              expect(bySql.count).toBe(expected.length);
              for (const sort of ['price-asc', 'price-desc'] as const) {
                const ordered = await priceOrderBySql(store.handle.db, f, sort, oracle);
                const page = { sort, offset: 0, limit: 10_000 };
                const inMemory = await searchSnapshot(store.handle.db, snap, f, { ...page, reaches });
                expect(inMemory.slots.map((slot) => idOfSlot(snap, slot))).toEqual(ordered);
                const inSql = await searchBySql(store.handle.db, f, { ...page, rankWindow: 1_000, reaches });
                expect(inSql.ids).toEqual(ordered);
              }
            }
          },
        ),
        { numRuns: 30 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('loads the same snapshot in a worker as on the main thread, for any catalogue', async () => {
    const source = databaseSource(store.handle.db);
    if (!source) throw new Error('the test store has no source a worker could open');
    await fc.assert(
      fc.asyncProperty(
        fc.array(product, { minLength: 0, maxLength: 120 }),
        fc.array(fc.oneof(filter, broadFilter), { minLength: 1, maxLength: 4 }),
        async (rows, filters) => {
          await replaceCatalogue(rows);
          const inWorker = snapshotFromLoad(await readFacetLoadInWorker(source), 'test');
          expect(inWorker).toEqual(await loadFacetSnapshot(store.handle.db, 'test'));
          await sameAsSql(inWorker, filters);
        },
      ),
      // Each run starts a worker (through tsx here: up to a second on a busy machine).
      { numRuns: 12 },
    );
  }, 120_000);

  it(
    'finds the same products in search as the plain SQL does, in stock only too, in every sort',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(product, { minLength: 0, maxLength: 60 }),
          fc.array(broadFilter, { minLength: 1, maxLength: 6 }),
          async (rows, filters) => {
            await replaceCatalogue(rows);
            for (const f of filters) {
              const expected = await matchingIdsBySql(store.handle.db, f);
              for (const sort of ['relevance', 'newest'] as const) {
                const found = await scrolled((offset) =>
                  searchProducts(store.handle.db, f, { sort, offset, limit: 48 }),
                );
                expect(found.totals.every((t) => t === expected.length)).toBe(true);
                expect(found.ids.sort()).toEqual(expected);
              }
            }
          },
        ),
        { numRuns: 40 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  const sameAsSql = async (snap: FacetSnapshot, filters: CatalogueFilter[]) => {
    for (const f of filters) {
      const fromMemory = assembleFacets(await countedFacets(store.handle.db, snap, f), f);
      expect(fromMemory).toEqual(assembleFacets(await facetCountsBySql(store.handle.db, f), f));
    }
  };

  /** A write a shop makes: a new product, a changed one (facets, price or text), a removed one. */
  const write = fc.oneof(
    fc.record({ op: fc.constant('insert' as const), spec: product }),
    fc.record({ op: fc.constant('update' as const), at: fc.nat(), spec: product }),
    fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('stock' as const), at: fc.nat(), spec: product }),
  );

  let next = 0;
  async function applyWrites(writes: Array<typeof write extends fc.Arbitrary<infer W> ? W : never>) {
    const db = store.handle.db;
    for (const w of writes) {
      const ids = (await db.selectFrom('products').select('id').orderBy('id').execute()).map((r) => r.id);
      const target = w.op === 'insert' ? undefined : ids[w.at % Math.max(1, ids.length)];
      if (w.op === 'insert') {
        const id = `n${next++}`;
        await insertProducts(db, [{ id, ...columns(w.spec) }]);
        await putStock(id, w.spec.stock);
      } else if (w.op === 'stock' && target) {
        await putStock(target, w.spec.stock);
      } else if (w.op === 'update' && target) {
        await db.updateTable('products').set(columns(w.spec)).where('id', '=', target).execute();
      } else if (w.op === 'delete' && target) {
        await db.deleteFrom('products').where('id', '=', target).execute();
      }
    }
  }

  it(
    'applies only the changed products to a snapshot, with the same answers as SQL',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(product, { minLength: 0, maxLength: 80 }),
          fc.array(write, { minLength: 1, maxLength: 25 }),
          fc.array(fc.oneof(filter, broadFilter), { minLength: 1, maxLength: 6 }),
          async (rows, writes, filters) => {
            await replaceCatalogue(rows);
            const db = store.handle.db;
            const snap = await loadFacetSnapshot(db, 'before');
            // Counted before the writes too: what a count keeps of the snapshot must follow it.
            await sameAsSql(snap, filters);
            await applyWrites(writes);
            const refreshed = await refreshFacetSnapshot(db, snap, 'after');
            expect(refreshed).toBe(snap); // applied in place, not loaded again
            expect(snap.revision).toBe('after');
            await sameAsSql(snap, filters);
          },
        ),
        { numRuns: 60 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'lists every sort page by page exactly as SQL does, sold-out marks too, also after writes applied to the snapshot',
    async () => {
      const db = store.handle.db;
      // The SQL listing with a window that holds every match ranks them all, as the snapshot does.
      const bySql = async (f: CatalogueFilter, sort: CatalogueSort) =>
        (await searchBySql(db, f, { sort, offset: 0, limit: 1_000, rankWindow: 1_000 })).ids;
      await fc.assert(
        fc.asyncProperty(
          fc.array(product, { minLength: 0, maxLength: 60 }),
          fc.array(write, { minLength: 0, maxLength: 10 }),
          fc.array(fc.oneof(filter, broadFilter), { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 1, max: 7 }),
          async (rows, writes, filters, limit) => {
            await replaceCatalogue(rows);
            // The snapshot is loaded at this revision, then follows the writes by refreshes.
            await searchProducts(db, NONE, { offset: 0, limit: 1 });
            await applyWrites(writes);
            for (const f of filters) {
              const matching = await matchingIdsBySql(db, f);
              for (const sort of ['featured', 'newest', 'price-asc', 'price-desc', 'relevance'] as const) {
                const listed = await scrolled((offset) => searchProducts(db, f, { sort, offset, limit }));
                expect(listed.totals.every((t) => t === matching.length)).toBe(true);
                // The snapshot's sold-out marks are the ones the stock table gives the same cards, and a
                // colour filter's cards show the colour they were found by.
                expect(listed.cards).toEqual(await expectedCards(db, f, listed.ids));
                if (sort === 'relevance' && searchTerms(f.q)) {
                  // The words' own order, keeping the products the filter finds.
                  const keep = new Set(matching);
                  const words = await bySql({ ...NONE, q: f.q }, 'relevance');
                  expect(listed.ids).toEqual(words.filter((id) => keep.has(id)));
                } else {
                  expect(listed.ids).toEqual(await bySql(f, sort));
                }
              }
            }
          },
        ),
        { numRuns: 40 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('reads a word once for the listing and its facets asked together, and once for every search it is in', async () => {
    await replaceCatalogue([SILK_KURTA, { ...SILK_KURTA, title: ['silk', 'shawl'] }]);
    const snap = await loadFacetSnapshot(store.handle.db, 'r1');
    const [forListing, forFacets] = await Promise.all([
      textMatch(store.handle.db, snap, 'silk'),
      textMatch(store.handle.db, snap, 'SILK'),
    ]);
    expect(forListing?.words[0]).toBe(forFacets?.words[0]);
    expect(forListing && countBits(matchesOf(snap, forListing))).toBe(2);
    const pair = await textMatch(store.handle.db, snap, 'shawl silk');
    expect(pair?.words[1]).toBe(forListing?.words[0]);
    expect(pair && countBits(matchesOf(snap, pair))).toBe(1);
  });

  it('asks for a fresh load when the change log no longer reaches back to the snapshot', async () => {
    await replaceCatalogue([SILK_KURTA]);
    const db = store.handle.db;
    const snap = await loadFacetSnapshot(db, 'before');
    await insertProducts(db, [{ id: 'late', title: 'velvet', colors: '["Gold"]', price_minor: 70 }]);
    // As if more than the log keeps had changed since: the entries the snapshot needs are gone.
    await db.deleteFrom('catalogue_changes').execute();
    await db.updateTable('products').set({ price_minor: 80 }).where('id', '=', 'late').execute();
    expect(await refreshFacetSnapshot(db, snap, 'after')).toBeNull();
    expect(snap.revision).toBe('before'); // left as it was, to answer until the load lands
    const loaded = await loadFacetSnapshot(db, 'after');
    await sameAsSql(loaded, [NONE]);
    expect(assembleFacets(await countedFacets(db, loaded, NONE), NONE).color).toContainEqual({
      value: 'Gold',
      count: 1,
    });
  });

  it('follows every product write at once (the snapshot is replaced when the storefront revision moves)', async () => {
    await replaceCatalogue([
      SILK_KURTA,
      {
        title: ['lawn'],
        manufacturer: 'Sehar Looms',
        sizes: ['L'],
        colors: ['Gold'],
        tags: ['eid'],
        price: 200,
        stock: [],
      },
    ]);
    const db = store.handle.db;
    const facets = async (f: CatalogueFilter) => {
      const answer = await facetCounts(db, f);
      expect(answer.upToDate).toBe(true);
      return answer.facets;
    };
    const check = async (f: CatalogueFilter) =>
      expect(await facets(f)).toEqual(assembleFacets(await facetCountsBySql(db, f), f));

    await check(NONE);
    await check({ ...NONE, q: 'silk' });
    await db
      .updateTable('products')
      .set({ colors: '["Teal"]', price_minor: 900 })
      .where('id', '=', 'p0')
      .execute();
    await check(NONE);
    expect((await facets(NONE)).color).toContainEqual({ value: 'Teal', count: 1 });
    await insertProducts(db, [{ id: 'p9', title: 'silk shawl', tags: '["wedding"]', price_minor: 50 }]);
    await check({ ...NONE, q: 'silk' });
    expect((await facets(NONE)).price).toEqual({ min: 50, max: 900 });
    await db.deleteFrom('products').where('id', '=', 'p1').execute();
    await check(NONE);
    expect((await facets(NONE)).manufacturer.map((o) => o.value)).not.toContain('Sehar Looms');
  });
});

/**
 * The cards a listing of `ids` for `f` should show, worked out from the stock table (stock.repository's
 * soldOutStockOf): sizes sold out in every colour marked on the card, each colour's own on its swatch; with
 * a colour chosen, the first chosen colour with something to sell (else the first chosen the product has),
 * its price and its sold-out sizes.
 */
async function expectedCards(db: TestStore['handle']['db'], f: CatalogueFilter, ids: string[]) {
  const stock = await soldOutStockOf(db, ids);
  const rows = ids.length === 0 ? [] : await cardColumns(db).where('p.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, toCard(r)]));
  const chosen = facetKeys('color', f.colors);
  return ids.map((id): ProductCard => {
    const card = byId.get(id);
    if (!card) throw new Error(`no card for ${id}`);
    const gone = stock.get(id);
    const marked = (sold: string[]) => ({
      soldOut: sold.length > 0 && sold.length === card.sizes.length,
      ...(sold.length > 0 ? { soldOutSizes: sold } : {}),
    });
    const colours = card.colours?.map((c): CardColour => {
      const sold = card.sizes.filter((s) => gone?.byColour.get(colourKey(c.name))?.has(s));
      return sold.length > 0 ? { ...c, soldOutSizes: sold } : c;
    });
    const plain: ProductCard = {
      ...card,
      ...(colours ? { colours } : {}),
      ...marked(card.sizes.filter((s) => gone?.sizes.has(s))),
    };
    const candidates = chosen.flatMap((key) => (colours ?? []).filter((c) => colourKey(c.name) === key));
    const colour =
      candidates.find((c) => card.sizes.length === 0 || (c.soldOutSizes?.length ?? 0) < card.sizes.length) ??
      candidates[0];
    if (!colour) return plain;
    // The plain card naming the colour, whose price and sold-out sizes its entry in `colours` has.
    return { ...plain, colour: colour.name };
  });
}

const SILK_KURTA: ProductSpec = {
  title: ['silk'],
  manufacturer: 'Noor Mahal',
  sizes: ['M'],
  colors: ['Mint'],
  tags: ['eid'],
  price: 100,
  stock: [],
};

type ProductSpec = {
  title: string[];
  manufacturer: string;
  sizes: string[];
  colors: string[];
  tags: string[];
  price: number;
  /** The fixtures' 'usd' when not said. */
  currency?: string;
  pageOrder?: number;
  day?: number;
  /** Stock rows: colour '' for all colours, else a colour's name (kept under its key). */
  stock: Array<{ colour: string; size: string; onHand: number; held: number }>;
};

const PLAIN_COLOUR = { hex: null, skuSuffix: null, priceMinor: null, images: [], sizeDetail: null };

function columns(p: ProductSpec) {
  return {
    title: p.title.join(' '),
    manufacturer: p.manufacturer,
    sizes: JSON.stringify(p.sizes),
    colors: JSON.stringify(p.colors),
    // As the products form writes them: the names, and the colours they are the names of.
    colour_options: JSON.stringify(p.colors.map((name) => ({ ...PLAIN_COLOUR, name }))),
    tags: JSON.stringify(p.tags),
    price_minor: p.price,
    ...(p.currency ? { currency: p.currency } : {}),
    page_order: p.pageOrder ?? 999,
    created_at: `2026-01-0${p.day ?? 1}T00:00:00.000Z`,
  };
}
