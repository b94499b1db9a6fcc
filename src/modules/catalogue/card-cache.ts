import type { CompiledQuery } from 'kysely';
import { GenerationCache, SlotGenerationCache } from '../../core/lru.js';
import { keepJson } from '../../core/prebuilt-json.js';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import type { ProductCard } from '../../shared/catalogue.js';
import { markCard } from '../stock/stock.repository.js';
import { type CardRow, cardColumns, toCard } from './catalogue.repository.js';
import { type FacetSnapshot, idOfSlot } from './snapshot/facet-snapshot.js';

/**
 * Product cards of one storefront revision, by id. Shoppers' listings seldom repeat, their cards far more
 * (the first pages of many filters share products), and a page of 24 cards read 0.6-1.3 ms at 100,000
 * products: each card is read once per revision. Everything a card shows (the product, its media, the
 * settings) moves the revision when it changes, which drops them all. So does a size selling out or coming
 * back: the cards by slot (the snapshot's listings) are kept with their sold-out sizes, read from the snapshot
 * when the card is, so a listing adds nothing per card for them; the cards by id (SQL's listings, while a
 * first snapshot loads) are kept without, and marked per page (withSoldOut).
 */
// A card takes about 380 bytes of heap (measured on the bench's catalogue) and its kept JSON about 500 bytes
// more outside it: 50,000 are about 45 MB. A catalogue of up to 25,000 products has every card read once per
// revision (the caches keep the last half of their bound whatever happens), a larger one its cards in use.
// At 100,000 products a bound of 20,000 left half the cache-miss stream's listings reading cards (0.36 ms a
// page, a ninth of the main thread); 50,000 served 12 % more of them (4 runs each, side by side).
const CARDS = 50_000;
const caches = new WeakMap<object, { revision: string; cards: GenerationCache<string, ProductCard> }>();

/** The cards of `ids` that exist, in the ids' order. */
export async function cardsOf(db: DbOrTx, revision: string, ids: string[]): Promise<ProductCard[]> {
  let cache = caches.get(db);
  // A request that read the revision before a change and ran after it (it waited its turn) reads its cards
  // as they are now into a map of its own, rather than drop every card of the newer revision.
  const late = cache !== undefined && cache.revision !== revision && isOlder(revision, cache.revision);
  if (!late && (!cache || cache.revision !== revision)) {
    cache = { revision, cards: new GenerationCache(CARDS) };
    caches.set(db, cache);
    // SQL answers this revision's listings (its snapshot is loading): the cards by slot are of an older one.
    dropUnlessNewer(slotCaches, db, revision);
  }
  const cards = late || !cache ? new GenerationCache<string, ProductCard>(CARDS) : cache.cards;
  // One lookup per id: on a listing's path the card map's lookups are cold in the CPU's caches.
  const found = ids.map((id) => cards.get(id));
  const missing = ids.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    const read = await readKeptCards(db, missing);
    for (const [id, card] of read) cards.set(id, card);
    for (const [i, id] of ids.entries()) found[i] ??= read.get(id);
  }
  return found.filter((card) => card !== undefined);
}

/**
 * The cards of `ids` that exist, by id, read now: after the request's revision was read, so a change in
 * between makes them newer than it, never older. Each marked with its sold-out sizes from `soldOut` (by
 * product id), when given. With their JSON (a card is sent in many listings, prebuilt-json.ts).
 */
async function readKeptCards(
  db: DbOrTx,
  ids: string[],
  soldOut?: Map<string, Set<string>>,
): Promise<Map<string, ProductCard>> {
  const read = new Map<string, ProductCard>();
  for (const row of await readCards(db, ids)) {
    read.set(row.id, keepJson(markCard(toCard(row), soldOut?.get(row.id))));
  }
  return read;
}

/**
 * The sold-out sizes of the snapshot's `slots` that have any, by product id, as the snapshot has them now:
 * taken before a card read's await, so they are of the revision the snapshot was then.
 */
function soldOutOfSlots(snap: FacetSnapshot, slots: number[], ids: string[]): Map<string, Set<string>> {
  const soldOut = new Map<string, Set<string>>();
  for (const [i, slot] of slots.entries()) {
    const sizes = snap.soldOutSizesOf.get(slot);
    if (sizes) soldOut.set(ids[i] ?? '', sizes);
  }
  return soldOut;
}

/**
 * Cards of one revision by the slot of the snapshot that listed them, so a listing answered from the
 * snapshot looks its page up by index rather than by id (an id is cut from the snapshot's text of ids, a new
 * string to hash each time, in a Map cold in the CPU's caches). Same bound and rule as the cards by id. A
 * slot stands for one product for the snapshot object's whole life (a refresh only adds slots; a changed
 * product gets a new one), and the revision decides what its card says: the cache is of both.
 */
const slotCaches = new WeakMap<
  object,
  { revision: string; snap: FacetSnapshot; cards: SlotGenerationCache<ProductCard> }
>();

/** Drops `db`'s cache in `from` unless it is of a revision newer than `revision`. */
function dropUnlessNewer(from: WeakMap<object, { revision: string }>, db: DbOrTx, revision: string): void {
  const held = from.get(db);
  if (held && !isOlder(revision, held.revision)) from.delete(db);
}

/**
 * The cards of the snapshot's `slots` whose products exist, in the slots' order, each marked with its
 * sold-out sizes as the snapshot has them (kept with the card: they move the revision when they change).
 */
export async function cardsOfSlots(
  db: DbOrTx,
  revision: string,
  snap: FacetSnapshot,
  slots: number[],
): Promise<ProductCard[]> {
  let cache = slotCaches.get(db);
  // As in cardsOf, a late request reads its cards as they are now and keeps none: a page's worth of reads,
  // not a cache (whose arrays are as long as the snapshot) made for one page. So does one whose snapshot
  // was brought to a newer revision while it waited (its marks are of that one now, not of `revision`).
  const late = cache !== undefined && cache.revision !== revision && isOlder(revision, cache.revision);
  if (late || snap.revision !== revision) {
    const ids = slots.map((slot) => idOfSlot(snap, slot));
    const read = await readKeptCards(db, ids, soldOutOfSlots(snap, slots, ids));
    return ids.flatMap((id) => read.get(id) ?? []);
  }
  if (!cache || cache.revision !== revision || cache.snap !== snap) {
    cache = { revision, snap, cards: new SlotGenerationCache(CARDS, slotRoom(snap)) };
    slotCaches.set(db, cache);
    // The snapshot answers this revision's listings from now on: cards by id (kept while SQL answered,
    // before it landed) would only double the bound.
    dropUnlessNewer(caches, db, revision);
  }
  const cards = cache.cards;
  const found = slots.map((slot) => cards.get(slot));
  const missing: number[] = [];
  for (const [i, card] of found.entries()) if (card === undefined) missing.push(slots[i] ?? 0);
  if (missing.length > 0) {
    const ids = missing.map((slot) => idOfSlot(snap, slot));
    const read = await readKeptCards(db, ids, soldOutOfSlots(snap, missing, ids));
    const bySlot = new Map<number, ProductCard>();
    for (const [i, slot] of missing.entries()) {
      const card = read.get(ids[i] ?? '');
      if (card === undefined) continue;
      cards.set(slot, card);
      bySlot.set(slot, card);
    }
    for (const [i, slot] of slots.entries()) found[i] ??= bySlot.get(slot);
  }
  return found.filter((card) => card !== undefined);
}

/** Slots in use and room for a few added later in the same revision (an array grows past its length). */
function slotRoom(snap: FacetSnapshot): number {
  return snap.alive.length * 32;
}

/**
 * The card query, compiled once per SQLite database and number of ids (a page has at most 48): building and
 * compiling it with Kysely cost a third of a card read at 100,000 products, SQLite's work the rest.
 */
const compiledReads = new WeakMap<object, Map<number, CompiledQuery<CardRow>>>();
const MOST_IDS_COMPILED = 48;

async function readCards(db: DbOrTx, ids: string[]): Promise<CardRow[]> {
  let byCount = compiledReads.get(db);
  if (!byCount) {
    byCount = new Map();
    compiledReads.set(db, byCount);
  }
  const kept = byCount.get(ids.length);
  if (kept) {
    // The ids are the query's last parameters (checked when it was compiled): this read's own go there.
    const parameters = [...kept.parameters.slice(0, kept.parameters.length - ids.length), ...ids];
    return (await db.executeQuery<CardRow>({ ...kept, parameters })).rows;
  }
  const compiled: CompiledQuery<CardRow> = cardColumns(db).where('p.id', 'in', ids).compile();
  const last = compiled.parameters.slice(compiled.parameters.length - ids.length);
  // Not on PostgreSQL: its plugins rewrite a query's values when it is compiled (text-without-nul.ts), which
  // a compiled query given new ones would skip; and there a read waits on the network anyway.
  const reusable = engineOf(db) === 'sqlite' && ids.length <= MOST_IDS_COMPILED;
  if (reusable && last.every((p, i) => p === ids[i])) byCount.set(ids.length, compiled);
  return (await db.executeQuery(compiled)).rows;
}

/** Revisions are counters (as text) that only move forward while the store runs. */
function isOlder(revision: string, than: string): boolean {
  const a = Number(revision);
  const b = Number(than);
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) && a < b;
}
