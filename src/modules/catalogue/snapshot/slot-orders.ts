import { hasBit } from './slot-sets.js';

/**
 * The facet snapshot's slots presorted in each listing order, so a page of any filter is the first matches
 * of the filter's mask in one array, with no SQL (decision 26). 'indexed' (newest indexed first) is
 * relevance's tie-break (decision 27), not a sort a shopper picks.
 * Ties are broken by product id in JavaScript's string order, which is code-point order for ids without
 * characters beyond U+FFFF: SQLite's BINARY collation, and PostgreSQL's "C".
 */

export const SLOT_SORTS = ['featured', 'newest', 'price-asc', 'price-desc', 'indexed'] as const;
export type SlotSort = (typeof SLOT_SORTS)[number];

/** What the orders compare: per slot, and a slot's product id for ties. */
export type SortKeys = {
  price: Float64Array;
  pageOrder: Float64Array;
  /** Milliseconds since the epoch. */
  createdAt: Float64Array;
  /** The full-text rowid. */
  rowid: Float64Array;
  idOf: (slot: number) => string;
};

function primary(sort: SlotSort, keys: SortKeys, slot: number): number {
  switch (sort) {
    case 'featured':
      return keys.pageOrder[slot] ?? 0;
    case 'newest':
      return -(keys.createdAt[slot] ?? 0);
    case 'price-asc':
      return keys.price[slot] ?? 0;
    case 'price-desc':
      return -(keys.price[slot] ?? 0);
    case 'indexed':
      return -(keys.rowid[slot] ?? 0);
  }
}

export function compareSlots(sort: SlotSort, keys: SortKeys, a: number, b: number): number {
  const d = primary(sort, keys, a) - primary(sort, keys, b);
  if (d !== 0) return d;
  const ia = keys.idOf(a);
  const ib = keys.idOf(b);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/** `slots` sorted in `sort`'s order (a new array). */
export function sortSlots(sort: SlotSort, keys: SortKeys, slots: Uint32Array): Uint32Array {
  return slots.slice().sort((a, b) => compareSlots(sort, keys, a, b));
}

/**
 * `order` with `added` (not in it) merged in where they belong: a binary search per added slot and one copy
 * of the rest, so a refresh of a few products costs one pass over the array, not a sort.
 */
export function mergeSlots(
  sort: SlotSort,
  keys: SortKeys,
  order: Uint32Array,
  added: Uint32Array,
): Uint32Array {
  if (added.length === 0) return order;
  const sorted = sortSlots(sort, keys, added);
  const out = new Uint32Array(order.length + sorted.length);
  let from = 0;
  let to = 0;
  for (const slot of sorted) {
    let lo = from;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareSlots(sort, keys, order[mid] ?? 0, slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    out.set(order.subarray(from, lo), to);
    to += lo - from;
    from = lo;
    out[to++] = slot;
  }
  out.set(order.subarray(from), to);
  return out;
}

/**
 * The `limit` slots after the first `offset` of `order` that `mask` holds. `count` (the mask's bits, when
 * the caller has counted them) lets a sparse mask skip the walk: a walk reads the order until the page is
 * full, which for a filter matching a few dozen of 100,000 products is the whole array, twice per listing
 * batch of a colour, size and maker together. Then the mask's own slots are ranked instead
 * (pageByRank), which reads the mask a machine word at a time. Both give the same page. Only an order of
 * every slot (the snapshot's orders, the sale prices' orders) is given a count: ranks are places in it.
 */
export function pageOf(
  order: Uint32Array,
  mask: Uint32Array,
  offset: number,
  limit: number,
  count?: number,
): number[] {
  if (count !== undefined && rankingPays(order.length, mask.length, count, offset + limit)) {
    return pageByRank(order, mask, offset, limit, count);
  }
  const page: number[] = [];
  let skip = offset;
  for (let i = 0; i < order.length && page.length < limit; i++) {
    const slot = order[i] ?? 0;
    if (!hasBit(mask, slot)) continue;
    if (skip > 0) skip--;
    else page.push(slot);
  }
  return page;
}

/**
 * Whether ranking the mask's slots costs less than walking the order: a walk reads about `wanted` ×
 * slots ÷ `count` entries (all of them when fewer match than the page wants), ranking every word of the
 * mask and a few steps per match (its rank, and its share of sorting the ranks).
 */
function rankingPays(slots: number, words: number, count: number, wanted: number): boolean {
  const walk = count <= wanted ? slots : (wanted * slots) / count;
  return words + 16 * count < walk;
}

/** Each slot's place in an order, made once per order array (the orders are replaced, not changed). */
const ranks = new WeakMap<Uint32Array, Uint32Array>();

function rankOf(order: Uint32Array): Uint32Array {
  let rank = ranks.get(order);
  if (!rank) {
    rank = new Uint32Array(order.length);
    for (let i = 0; i < order.length; i++) rank[order[i] ?? 0] = i;
    ranks.set(order, rank);
  }
  return rank;
}

/** pageOf for a sparse mask: its slots' places in the order, sorted, and the page's cut of them. */
function pageByRank(
  order: Uint32Array,
  mask: Uint32Array,
  offset: number,
  limit: number,
  count: number,
): number[] {
  const rank = rankOf(order);
  let places = new Uint32Array(count);
  let n = 0;
  for (let w = 0; w < mask.length; w++) {
    let bits = mask[w] ?? 0;
    while (bits !== 0) {
      const low = bits & -bits;
      const slot = (w << 5) | (31 - Math.clz32(low));
      bits ^= low;
      // A slot past the order is in no order: the walk would never reach it either.
      if (slot >= rank.length) continue;
      if (n === places.length) {
        const grown = new Uint32Array(places.length * 2 + 16);
        grown.set(places);
        places = grown;
      }
      places[n++] = rank[slot] ?? 0;
    }
  }
  const sorted = places.subarray(0, n).sort();
  return Array.from(sorted.subarray(offset, offset + limit), (place) => order[place] ?? 0);
}
