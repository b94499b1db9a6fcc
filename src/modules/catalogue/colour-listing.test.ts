import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJsonBuffer } from '../../core/prebuilt-json.js';
import { cardView } from '../../shared/card-view.js';
import type { ProductCard } from '../../shared/catalogue.js';
import type { ColourOption } from '../../shared/colours.js';
import type { CatalogueFilter } from '../../shared/storefront-input.js';
import { facetCountsBySql, matchingIdsBySql } from '../../test-support/facet-counts-oracle.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { assembleFacets, facetCounts, searchProducts } from './catalogue-search.repository.js';
import { facetLoadInFlight } from './snapshot/snapshot-per-database.js';

const ALL: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };
const TEAL: CatalogueFilter = { ...ALL, colors: ['teal'] };

const colour = (name: string, extra: Partial<ColourOption> = {}): ColourOption => ({
  name,
  hex: null,
  skuSuffix: null,
  priceMinor: null,
  images: [],
  sizeDetail: null,
  ...extra,
});

/** A product with colours, as the products form writes it: the options and their names. */
const withColours = (options: ColourOption[]) => ({
  colors: JSON.stringify(options.map((o) => o.name)),
  colour_options: JSON.stringify(options),
});

const TEAL_PHOTO = '/media/kurta-teal.svg';

/**
 * The catalogue listing with colour variants (decision 0036's rule: a colour's own count, else all colours',
 * else untracked): a colour filter finds what has that colour to sell, its count agrees, and a card found
 * through it shows that colour. On both engines, from the snapshot and from SQL.
 */
describe('colours in the catalogue listing', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    const two = (extraTeal: Partial<ColourOption> = {}) =>
      withColours([colour('Teal', { hex: '#1f7a6d', ...extraTeal }), colour('Maroon', { hex: '#6d1f2a' })]);
    await insertProducts(db, [
      // Teal counted by its own rows, every one sold out (one held to its last unit).
      { id: 'tealgone', title: 'Lawn Kurta', sizes: '["S","M"]', page_order: 1, ...two() },
      // Teal untracked: always buyable.
      { id: 'untracked', title: 'Lawn Shirt', sizes: '["S","M"]', page_order: 2, ...two() },
      // Teal drawn from the all-colours count, which has sizes left.
      { id: 'pooled', title: 'Lawn Suit', sizes: '["S","M"]', page_order: 3, ...two() },
      // The all-colours count sold out; Maroon has its own S.
      { id: 'poolgone', title: 'Lawn Cape', sizes: '["S","M"]', page_order: 4, ...two() },
      // Only teal M sold out; teal has its own photo and price.
      {
        id: 'tealm',
        title: 'Lawn Shawl',
        sizes: '["S","M"]',
        page_order: 5,
        ...two({ images: [TEAL_PHOTO], priceMinor: 6500 }),
      },
      // No colours at all: a colour filter never finds it, and its card is as before.
      { id: 'plain', title: 'Lawn Scarf', sizes: '["S"]', page_order: 6 },
    ]);
    await db
      .insertInto('media')
      .values(
        [
          ['tealm-0', 'tealm', '/media/kurta-all.svg', 0],
          ['tealm-1', 'tealm', TEAL_PHOTO, 1],
        ].map(([id, product, url, order]) => ({
          id: String(id),
          product_id: String(product),
          url: String(url),
          file_name: String(url).split('/').pop() ?? '',
          media_type: 'image' as const,
          display_order: Number(order),
          alt_text: null,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })),
      )
      .execute();
    const row = (product_id: string, colour: string, size: string, on_hand: number, reserved = 0) => ({
      product_id,
      colour,
      size,
      on_hand,
      reserved,
    });
    await db
      .insertInto('size_stock')
      .values([
        row('tealgone', 'teal', 'S', 0),
        row('tealgone', 'teal', 'M', 1, 1),
        row('pooled', '', 'S', 4),
        row('pooled', '', 'M', 0),
        row('poolgone', '', 'S', 0),
        row('poolgone', '', 'M', 0),
        row('poolgone', 'maroon', 'S', 3),
        row('tealm', 'teal', 'M', 0),
      ])
      .execute();
  });
  afterAll(() => store.cleanup());

  const list = async (f: CatalogueFilter, opts: { sql?: boolean } = {}) =>
    (
      await searchProducts(store.handle.db, f, {
        offset: 0,
        limit: 24,
        ...(opts.sql ? { snapshot: { inlineMaxProducts: 0 } } : {}),
      })
    ).items;
  const ids = (cards: ProductCard[]) => cards.map((c) => c.id);
  const byId = (cards: ProductCard[], id: string) => {
    const card = cards.find((c) => c.id === id);
    if (!card) throw new Error(`no card ${id}`);
    return card;
  };
  const count = async (f: CatalogueFilter, kind: 'color' | 'size', value: string) => {
    const answer = await facetCounts(store.handle.db, f);
    return answer.facets[kind].find((o) => o.value.toLowerCase() === value.toLowerCase())?.count ?? 0;
  };

  it('finds a colour only where it can be bought, from SQL and from the snapshot alike', async () => {
    // The first listing is answered in SQL while the snapshot loads (in a worker).
    const bySql = await list(TEAL, { sql: true });
    expect(facetLoadInFlight(store.handle.db)).not.toBeNull();
    await facetLoadInFlight(store.handle.db);
    const fromSnapshot = await list(TEAL);
    for (const cards of [bySql, fromSnapshot]) {
      expect(ids(cards)).toEqual(['untracked', 'pooled', 'tealm']);
      expect(byId(cards, 'tealm').colour).toBe('Teal');
      expect(cardView(byId(cards, 'tealm'))).toMatchObject({ soldOutSizes: ['M'], soldOut: false });
    }
    expect(fromSnapshot).toEqual(bySql);
    expect(ids(await list({ ...ALL, colors: ['Maroon'] }))).toEqual([
      'tealgone',
      'untracked',
      'pooled',
      'poolgone',
      'tealm',
    ]);
    // Counts say what picking the colour would give.
    expect(await count(ALL, 'color', 'Teal')).toBe(3);
    expect(await count(ALL, 'color', 'Maroon')).toBe(5);
    expect(await count(TEAL, 'color', 'Teal')).toBe(3);
    expect(await count({ ...ALL, sizes: ['M'] }, 'color', 'Teal')).toBe(3);
    for (const f of [ALL, TEAL, { ...TEAL, inStock: true }, { ...ALL, sizes: ['M'], inStock: true }]) {
      const facets = await facetCounts(store.handle.db, f);
      expect(facets.facets).toEqual(assembleFacets(await facetCountsBySql(store.handle.db, f), f));
      expect(ids(await list(f)).sort()).toEqual(await matchingIdsBySql(store.handle.db, f));
    }
  });

  it('shows the colour a card was found by: its photo, price, sold-out sizes and name', async () => {
    // As the storefront's card shows it (the shared cardView), and as the bytes a listing sends say.
    const found = byId(await list(TEAL), 'tealm');
    const sent = JSON.parse(toJsonBuffer(found).toString('utf8')) as ProductCard;
    expect(sent).toEqual(JSON.parse(JSON.stringify(found)));
    for (const card of [found, sent]) {
      expect(card.colour).toBe('Teal');
      const view = cardView(card);
      expect(view.image).toMatchObject({ url: TEAL_PHOTO });
      expect(view.priceMinor).toBe(6500);
      expect(view).toMatchObject({ colour: { name: 'Teal' }, soldOutSizes: ['M'], soldOut: false });
    }
    // Drawn from all colours' count: the pool's sold-out M is teal's too.
    const pooled = byId(await list(TEAL), 'pooled');
    expect(pooled.colour).toBe('Teal');
    expect(cardView(pooled)).toMatchObject({ soldOutSizes: ['M'] });
    // Two colours chosen: the first one the product has something of.
    expect(byId(await list({ ...ALL, colors: ['Teal', 'Maroon'] }), 'tealgone').colour).toBe('Maroon');
  });

  it('marks a size sold out on a plain card only when it is sold out in every colour', async () => {
    const cards = await list(ALL);
    const tealm = byId(cards, 'tealm');
    // M is sold out in teal only: not on the card, but on the teal swatch (what quick Add to cart of teal
    // cannot buy).
    expect(tealm.soldOutSizes).toBeUndefined();
    expect(tealm.soldOut).toBe(false);
    expect(tealm.colour).toBeUndefined();
    expect(tealm.image).toMatchObject({ url: '/media/kurta-all.svg' });
    // Teal has photos of its own, but its swatch is its hex: the photo is not sent with the swatch.
    expect(tealm.colours).toEqual([
      { name: 'Teal', hex: '#1f7a6d', priceMinor: 6500, soldOutSizes: ['M'] },
      { name: 'Maroon', hex: '#6d1f2a' },
    ]);
    expect(byId(cards, 'poolgone')).toMatchObject({ soldOutSizes: ['M'], soldOut: false });
    expect(byId(cards, 'tealgone').soldOutSizes).toBeUndefined();
    // A product without colours: its card has no colour fields at all.
    expect(Object.keys(byId(cards, 'plain')).sort()).toEqual(
      [
        'currency',
        'description',
        'hasPaymentLink',
        'id',
        'image',
        'manufacturer',
        'priceMinor',
        'sizes',
        'soldOut',
        'title',
      ].sort(),
    );
    // In stock only: a size sold out in one colour is still to be had in another.
    expect(ids(await list({ ...ALL, sizes: ['M'], inStock: true }))).toEqual([
      'tealgone',
      'untracked',
      'tealm',
    ]);
    expect(await count({ ...ALL, inStock: true }, 'size', 'M')).toBe(3);
  });

  it('follows the stock: teal found again once it is untracked, or restocked', async () => {
    const db = store.handle.db;
    await db.deleteFrom('size_stock').where('product_id', '=', 'tealgone').execute();
    expect(ids(await list(TEAL))).toEqual(['tealgone', 'untracked', 'pooled', 'tealm']);
    expect(await count(ALL, 'color', 'Teal')).toBe(4);
    await db
      .updateTable('size_stock')
      .set({ on_hand: 2 })
      .where('product_id', '=', 'poolgone')
      .where('colour', '=', '')
      .where('size', '=', 'M')
      .execute();
    expect(ids(await list(TEAL))).toEqual(['tealgone', 'untracked', 'pooled', 'poolgone', 'tealm']);
    const poolgone = byId(await list(TEAL), 'poolgone');
    expect(poolgone.colour).toBe('Teal');
    expect(cardView(poolgone)).toMatchObject({ soldOutSizes: ['S'] });
    expect(await count(ALL, 'color', 'Teal')).toBe(5);
  });
});
