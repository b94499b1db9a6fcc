import { lruGet, lruSet } from '../../../core/lru.js';
import type { DbOrTx } from '../../../db/database.js';
import { type IndexWord, indexWords, WORD_SCORE } from '../full-text.js';
import { type FacetSnapshot, maskOfRowidList, SEPARATOR } from './facet-snapshot.js';
import { bucketsPay, rankBuckets } from './rank-buckets.js';
import { freshMask, type TakeMask } from './scratch-masks.js';
import { pageOf } from './slot-orders.js';
import { countBits, eachSlot, eachSlotDescending, hasBit, intersect } from './slot-sets.js';
import type { WordMasks } from './word-masks.js';
import { wordRowidLists } from './word-reads.js';

/**
 * A shopper's words over the facet snapshot (decision 27). Each word's matches are read from the engine's
 * own full-text index once until a product changes (the snapshot's `seq`), as three masks of live slots
 * (anywhere, in the title, in the maker or tags); a search of several words is their intersection, and its
 * relevance order is worked out from the same masks, in memory. Shoppers' words repeat far more than their
 * combinations: a new pair of known words reads nothing.
 */

/**
 * A search's words over a snapshot: each word's masks, and the snapshot's `seq` they are of (what is worked
 * out from them is kept only while the snapshot is still there). The slots every word matches are
 * `matchesOf` them, worked out where they are used.
 */
export type TextMatch = { key: string; words: WordMasks[]; seq: number };

/**
 * Words kept per snapshot: 3 × 12.5 kB each at 100,000 products (19 MB for 512). Cleared when a refresh
 * applies a product's change.
 */
const WORD_MASKS = 512;
/** Relevance orders kept per snapshot: 4 bytes per match, up to 400 kB for a word every product has. */
const RANKED_ORDERS = 32;
/** Below one match in this many slots, sorting the matches beats walking the whole 'indexed' order. */
const SPARSE = 16;

const descending = new WeakMap<Uint32Array, boolean>();

/** Whether an order is every slot from the highest down (worked out once per order array: refreshes replace it). */
function isSlotsDescending(order: Uint32Array): boolean {
  const known = descending.get(order);
  if (known !== undefined) return known;
  let yes = true;
  for (let i = 0; i < order.length && yes; i++) yes = order[i] === order.length - 1 - i;
  descending.set(order, yes);
  return yes;
}

/** The words' matches over the snapshot (null when nothing is searched). */
export async function textMatch(
  db: DbOrTx,
  snap: FacetSnapshot,
  q: string | undefined,
): Promise<TextMatch | null> {
  const words = await indexWords(db, q);
  if (!words) return null;
  const readAll = () => Promise.all(words.map((w) => wordMasks(db, snap, w)));
  let at = snap.seq;
  let masks = await readAll();
  // A product changed while the words were read: what they matched may be of the products before it, so
  // they are read again, once (under the new seq). Should it move again, this search's relevance order is
  // not kept (relevanceOrder compares the seqs).
  if (snap.seq !== at) {
    at = snap.seq;
    masks = await readAll();
  }
  return { key: words.map((w) => w.key).join(SEPARATOR), words: masks, seq: at };
}

/**
 * The slots every word matches: FTS5 and tsquery both find the products every word matches (an FTS5 term
 * that is no word at all matches nothing, alone or beside others), so the intersection is what the whole
 * query finds. One word's is its own mask (never written to); several words' is made by `take`.
 */
export function matchesOf(snap: FacetSnapshot, text: TextMatch, take: TakeMask = freshMask): Uint32Array {
  const [first, ...rest] = text.words;
  if (!first) return take(snap.alive.length);
  let mask = first.any;
  let own: Uint32Array | undefined;
  for (const m of rest) {
    own ??= take(mask.length);
    mask = intersect(mask, m.any, own);
  }
  return mask;
}

/**
 * A word's masks, kept until a product changes (FacetSnapshot.wordMasks); concurrent requests for the same
 * word share one read.
 */
async function wordMasks(db: DbOrTx, snap: FacetSnapshot, word: IndexWord): Promise<WordMasks> {
  const key = `${snap.seq}${SEPARATOR}${word.key}`;
  const known = lruGet(snap.wordMasks, key);
  if (known) return known;
  const reading = snap.wordReads.get(key);
  if (reading) return reading;
  const read = readWordMasks(db, snap, word, key);
  snap.wordReads.set(key, read);
  try {
    return await read;
  } finally {
    snap.wordReads.delete(key);
  }
}

async function readWordMasks(
  db: DbOrTx,
  snap: FacetSnapshot,
  word: IndexWord,
  key: string,
): Promise<WordMasks> {
  const seq = snap.seq;
  // Off the main thread on a large SQLite catalogue (word-reads.ts).
  const rowids = await wordRowidLists(db, word, { products: snap.size });
  // Resolved after the read, synchronously, against the snapshot as it is then.
  const masks = {
    any: maskOfRowidList(snap, rowids.any),
    title: maskOfRowidList(snap, rowids.title),
    tags: maskOfRowidList(snap, rowids.tags),
  };
  // Kept only if no product changed meanwhile (the key names the seq it was asked under).
  if (snap.seq === seq) lruSet(snap.wordMasks, key, masks, WORD_MASKS);
  return masks;
}

/** A slot's score for the words: the sum of each word's WORD_SCORE for the field it is found in. */
function scoreOf(words: readonly WordMasks[], slot: number): number {
  let score = 0;
  for (const w of words) {
    score += hasBit(w.title, slot)
      ? WORD_SCORE.title
      : hasBit(w.tags, slot)
        ? WORD_SCORE.tags
        : WORD_SCORE.text;
  }
  return score;
}

/**
 * The slots `visit` hands over, best score first and in the order they were handed over within a score:
 * each goes into the list of its score, and the lists, best score first, are the order.
 */
function bestScoreFirst(words: readonly WordMasks[], visit: (add: (slot: number) => void) => void): number[] {
  const byScore = new Map<number, number[]>();
  visit((slot) => {
    const score = scoreOf(words, slot);
    const list = byScore.get(score);
    if (list) list.push(slot);
    else byScore.set(score, [slot]);
  });
  return [...byScore.keys()].sort((a, b) => b - a).flatMap((score) => byScore.get(score) ?? []);
}

/**
 * A page of a search in relevance order (decision 27): the `limit` slots after the first `offset` of
 * `listed` (the words' `matches` that pass the other filters, `count` of them) by the sum of the words'
 * WORD_SCORE, then newest indexed first. Other filters only pick among the matches, so they never reorder
 * a search. In a snapshot whose slots are in rowid order (as loaded, and after additions only) newest
 * indexed first is highest slot first, and only the listed slots are ranked, with nothing kept; else every
 * match's order is worked out and kept (relevanceOrder).
 */
export function relevancePage(
  snap: FacetSnapshot,
  text: TextMatch,
  matches: Uint32Array,
  listed: { mask: Uint32Array; count: number },
  page: { offset: number; limit: number },
  take: TakeMask = freshMask,
): number[] {
  if (!isSlotsDescending(snap.orders.indexed)) {
    return pageOf(relevanceOrder(snap, text, matches), listed.mask, page.offset, page.limit);
  }
  if (bucketsPay(text.words.length, listed.mask.length, listed.count)) {
    // Each score's slots read off bitsets (rank-buckets.ts), a machine word at a time, where that costs
    // less than scoring the listed slots one by one below.
    return rankBuckets(listed.mask, text.words, page.offset, page.limit, take);
  }
  // The listed slots scored one by one, highest first.
  const ranked = bestScoreFirst(text.words, (add) => eachSlotDescending(listed.mask, add));
  return ranked.slice(page.offset, page.offset + page.limit);
}

/**
 * Every match of the words in relevance order, in a snapshot whose slots are not in rowid order (a
 * product changed since it loaded): kept until a product changes, per words.
 */
export function relevanceOrder(snap: FacetSnapshot, text: TextMatch, matches: Uint32Array): Uint32Array {
  const key = `${text.seq}${SEPARATOR}${text.key}`;
  const known = lruGet(snap.rankedSlots, key);
  if (known) return known;
  const keep = (order: Uint32Array) => {
    // Of the products the words were read against: kept only if none has changed since.
    if (text.seq === snap.seq) lruSet(snap.rankedSlots, key, order, RANKED_ORDERS);
    return order;
  };
  if (countBits(matches) * SPARSE < snap.size) {
    // Few matches: sorted on their own (live slots have distinct rowids).
    const slots: number[] = [];
    eachSlot(matches, (slot) => slots.push(slot));
    const scores = new Map(slots.map((slot) => [slot, scoreOf(text.words, slot)]));
    slots.sort(
      (a, b) =>
        (scores.get(b) ?? 0) - (scores.get(a) ?? 0) ||
        (snap.rowidOfSlot[b] ?? 0) - (snap.rowidOfSlot[a] ?? 0),
    );
    return keep(Uint32Array.from(slots));
  }
  // Else the matches in the 'indexed' order, walked once over every slot of the catalogue.
  const order = bestScoreFirst(text.words, (add) => {
    for (const slot of snap.orders.indexed) if (hasBit(matches, slot)) add(slot);
  });
  return keep(Uint32Array.from(order));
}
