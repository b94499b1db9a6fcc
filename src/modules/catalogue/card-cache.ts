import type { CompiledQuery } from 'kysely';
import { GenerationCache } from '../../core/lru.js';
import { keepJson } from '../../core/prebuilt-json.js';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import type { ProductCard } from '../../shared/catalogue.js';
import { type CardRow, cardColumns, toCard } from './catalogue.repository.js';

/**
 * Product cards of one storefront revision, by id. Shoppers' listings seldom repeat, their cards far more
 * (the first pages of many filters share products), and a page of 24 cards read 0.6-1.3 ms at 100,000
 * products: each card is read once per revision. Everything a card shows (the product, its media, the
 * settings) moves the revision when it changes, which drops them all; sold-out marks are added per page
 * (withSoldOut), not kept here.
 */
// A card takes about 380 bytes of heap (measured on the bench's catalogue) and its kept JSON about 500 bytes
// more outside it: 20,000 are about 18 MB. A catalogue of up to 10,000 products has every card read once per
// revision (GenerationCache keeps the last half of its bound whatever happens), a larger one its cards in
// use.
const CARDS = 20_000;
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
  }
  const cards = late || !cache ? new GenerationCache<string, ProductCard>(CARDS) : cache.cards;
  // One lookup per id: on a listing's path the card map's lookups are cold in the CPU's caches.
  const found = ids.map((id) => cards.get(id));
  const missing = ids.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    const read = new Map<string, ProductCard>();
    // Read after `revision` was: a change in between makes these newer than it, never older.
    for (const row of await readCards(db, missing)) {
      // Its JSON too: a card is sent in many listings (prebuilt-json.ts).
      const card = keepJson(toCard(row));
      cards.set(row.id, card);
      read.set(row.id, card);
    }
    for (const [i, id] of ids.entries()) found[i] ??= read.get(id);
  }
  return found.filter((card) => card !== undefined);
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
