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

/** The `limit` slots after the first `offset` of `order` that `mask` holds. */
export function pageOf(order: ArrayLike<number>, mask: Uint32Array, offset: number, limit: number): number[] {
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
