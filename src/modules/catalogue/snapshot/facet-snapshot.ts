import type { DbOrTx, FacetKind } from '../../../db/database.js';
import type { CatalogueFilter } from '../../../shared/storefront-input.js';
import type { SaleReach } from '../on-sale.js';
import { FACET_GROUPS, facetKey, facetKeys } from '../search-query.js';
import { type BitCounter, bitCounter } from './bit-counter.js';
import {
  type FacetLoad,
  type ProductRow,
  readFacetLoad,
  type SoldOutProduct,
  soldOutRows,
  toMillis,
} from './facet-load.js';
import { freshMask, type TakeMask, withScratchMasks } from './scratch-masks.js';
import { mergeSlots, SLOT_SORTS, type SlotSort, type SortKeys } from './slot-orders.js';
import {
  andNot,
  clearBit,
  countBits,
  eachSlot,
  hasBit,
  holds,
  intersect,
  type SlotSet,
  setBit,
  union,
} from './slot-sets.js';
import type { WordMasks } from './word-masks.js';

/**
 * Every product's facet values and price in memory, as sets of product slots, for one storefront revision.
 * Counting facets in SQL reads a facet row per product per value: 300 ms for 'silk' at 100,000 products
 * (34,648 matches), which blocked the one server thread. Here a count is a popcount of two sets.
 *
 * A value held by many products is a bitset, a rare one a sorted list of slots (slot-sets.ts). A changed
 * product gets a new slot and its old one is marked dead (`alive`), so changes apply without rebuilding
 * the sets. A full load is read off the main thread (facet-load.ts, snapshot-per-database.ts) and arrives as
 * arrays: the slots of the load's ids and rowids are found by binary search in them (`loaded`), and only
 * the products added since by refreshes are in Maps.
 */
export type FacetSnapshot = {
  revision: string;
  /** The last catalogue_changes entry applied. */
  seq: number;
  /** Slots in use (dead ones included); arrays below are allocated for `capacity` slots. */
  size: number;
  capacity: number;
  dead: number;
  alive: Uint32Array;
  price: Float64Array;
  pageOrder: Float64Array;
  createdAt: Float64Array;
  /** Every slot, dead ones too, in each listing order (slot-orders.ts); dead ones are skipped by masks. */
  orders: Record<SlotSort, Uint32Array>;
  /** The full-text rowid of each slot: ascending over the load's slots (0 to loaded.size). */
  rowidOfSlot: Float64Array;
  /** The ids of the load's slots and the slots in id order (see FacetLoad). */
  loaded: Pick<FacetLoad, 'size' | 'ids' | 'idStart' | 'slotsById'>;
  /** Products added by refreshes since the load, by id and by rowid. */
  addedById: Map<string, number>;
  addedByRowid: Map<number, number>;
  /** The product id of every slot added since the load, dead ones too (the orders still compare them). */
  idOfAdded: Map<number, string>;
  terms: Map<string, Term>;
  /**
   * Size key -> the slots whose that size is sold out in every colour, and the slots whose every size is:
   * read again with each load and refresh, since stock moves without touching catalogue_changes (the
   * storefront revision moves when a size turns sold out or back, which is what brings the refresh).
   */
  soldOut: Map<string, Uint32Array>;
  everySizeSoldOut: Uint32Array;
  /**
   * Colour key -> the slots that have that colour and sizes, none of them buyable in it (decision 0036: the
   * colour's own row, else the all-colours row, says so): a colour filter does not find them, nor count them.
   */
  colourSoldOut: Map<string, Uint32Array>;
  /**
   * What is sold out of each slot that has anything sold out (sizes in every colour, and per colour key), as
   * the load read it, spelled as the stock rows are: what a listing card's sold-out sizes, "Sold out" mark
   * and colour swatches are worked out from when the card is read (card-cache.ts, with markCard), as the
   * product page's are. Kept as read: turned into sets only for the few cards read.
   */
  soldOutStockOf: Map<number, SoldOutProduct>;
  /**
   * Each searched word's live matches, most recently used last (snapshot-text.ts), by `seq` and word: only
   * a product's change alters what words match, so a size selling out, a setting or a picture, which move
   * the revision and nothing else, leave them.
   */
  wordMasks: Map<string, WordMasks>;
  /** The words being read, by the same key: concurrent requests for the same word share one read. */
  wordReads: Map<string, Promise<WordMasks>>;
  /** Every match of a search in relevance order, by `seq` and words (snapshot-text.ts). */
  rankedSlots: Map<string, Uint32Array>;
  /**
   * The bitsets above (terms' and sold-out sizes') as the facet counts read them (bit-counter.ts): made at
   * the first count and dropped by every change to a set, to be made again from the sets as they are.
   */
  counter: BitCounter | null;
  /**
   * Each colour term's holders less those with nothing to sell in it (colourSoldOut): what a colour filter
   * finds and its count counts, made once per snapshot state rather than once per listing (a union and an
   * AND NOT per chosen colour, and an AND NOT count per colour, were a listing's). Made with the counter,
   * whose sets they are among, and dropped with it.
   */
  colourSellable: Map<Term, SlotSet> | null;
};

type Term = { kind: FacetKind; key: string; value: string; slots: SlotSet };

/** Counts per (kind, key, value), each a number of products, and the price range, for `assemble`. */
export type RawFacetCounts = {
  counted: Map<FacetKind, Array<{ key: string; value: string; count: number }>>;
  price: { min: number; max: number } | null;
  /** Products found that are on sale (the On sale filter's count). */
  onSale: number;
};

export const SEPARATOR = '\u001f';
/** Beyond this many changed products (or this share of dead slots) a fresh load is cheaper and smaller. */
const MAX_CHANGES = 2_000;
const IN_CHUNK = 500;

const termId = (kind: string, key: string, value: string) => `${kind}${SEPARATOR}${key}${SEPARATOR}${value}`;

/** Reads the catalogue's facets on this thread: about 0.9 s at 100,000 products, 0.1 s at 10,000. */
export async function loadFacetSnapshot(db: DbOrTx, revision: string): Promise<FacetSnapshot> {
  return snapshotFromLoad(await readFacetLoad(db), revision);
}

/**
 * A snapshot of `revision` made of a load's arrays, which it keeps (no copy): a few milliseconds at
 * 100,000 products, since nothing here is per product but the `alive` bits.
 */
export function snapshotFromLoad(load: FacetLoad, revision: string): FacetSnapshot {
  const words = load.capacity >>> 5;
  const alive = new Uint32Array(words);
  alive.fill(0xffffffff, 0, load.size >>> 5);
  if (load.size & 31) alive[load.size >>> 5] = 2 ** (load.size & 31) - 1;
  const snap: FacetSnapshot = {
    revision,
    seq: load.seq,
    size: load.size,
    capacity: load.capacity,
    dead: 0,
    alive,
    price: load.price,
    pageOrder: load.pageOrder,
    createdAt: load.createdAt,
    orders: Object.fromEntries(
      SLOT_SORTS.map((sort, i) => [sort, load.orders.subarray(i * load.size, (i + 1) * load.size)]),
    ) as Record<SlotSort, Uint32Array>,
    rowidOfSlot: load.rowidOfSlot,
    loaded: { size: load.size, ids: load.ids, idStart: load.idStart, slotsById: load.slotsById },
    addedById: new Map(),
    addedByRowid: new Map(),
    idOfAdded: new Map(),
    terms: new Map(),
    soldOut: new Map(),
    everySizeSoldOut: new Uint32Array(words),
    colourSoldOut: new Map(),
    soldOutStockOf: new Map(),
    wordMasks: new Map(),
    wordReads: new Map(),
    rankedSlots: new Map(),
    counter: null,
    colourSellable: null,
  };
  for (const [i, t] of load.terms.entries()) {
    const set = load.sets.subarray(load.setStart[i] ?? 0, load.setStart[i + 1] ?? 0);
    snap.terms.set(termId(t.kind, t.key, t.value), {
      ...t,
      slots: load.isBits[i] === 1 ? { bits: set } : { list: set },
    });
  }
  applySoldOut(snap, load.soldOut);
  return snap;
}

/** The live slot of a product id, if it has one. */
export function slotOfId(snap: FacetSnapshot, id: string): number | undefined {
  const added = snap.addedById.get(id);
  if (added !== undefined) return added;
  const { ids, idStart, slotsById, size } = snap.loaded;
  let lo = 0;
  let hi = size - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const slot = slotsById[mid] ?? 0;
    const candidate = ids.slice(idStart[slot] ?? 0, idStart[slot + 1] ?? 0);
    if (candidate === id) return hasBit(snap.alive, slot) ? slot : undefined;
    if (candidate < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The slots one sale's reach holds (dead ones may be among them): the same as on-sale.ts's SQL. */
export function reachSlots(snap: FacetSnapshot, r: SaleReach): Uint32Array {
  const termsOf = (kind: FacetKind, keys: string[]) => {
    const out = new Uint32Array(snap.alive.length);
    if (keys.length === 0) return out;
    const wanted = new Set(keys);
    for (const t of snap.terms.values()) if (t.kind === kind && wanted.has(t.key)) union(out, t.slots);
    return out;
  };
  let reach: Uint32Array;
  if (r.products.length > 0 || r.tags.length > 0) {
    reach = termsOf('tag', r.tags);
    for (const id of r.products) {
      const slot = slotOfId(snap, id);
      if (slot !== undefined) setBit(reach, slot);
    }
  } else {
    reach = snap.alive.slice();
  }
  return r.colours.length > 0 ? intersect(reach, termsOf('color', r.colours), reach) : reach;
}

/**
 * The first loaded slot, from `from` on, whose rowid is not below `rowid` (loaded slots are in rowid order).
 * Galloping from `from`, then a binary search: a word's rowids arrive ascending and mostly close together,
 * where a binary search over all the rest took 17 steps for each of 100,000 matches.
 */
export function loadedPosition(
  snap: Pick<FacetSnapshot, 'rowidOfSlot'> & { loaded: { size: number } },
  rowid: number,
  from: number,
): number {
  const rowids = snap.rowidOfSlot;
  const size = snap.loaded.size;
  // Every position below `lo` holds a smaller rowid; `hi` is the first seen that does not (or the end).
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < size && (rowids[hi] ?? 0) < rowid) {
    lo = hi + 1;
    hi = lo + step;
    step *= 2;
  }
  hi = Math.min(hi, size);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rowids[mid] ?? 0) < rowid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A bitset of the live slots of `rowids`. FTS5 lists them in ascending order, so each is searched for from
 * where the last was found; any other order (string_agg promises none) only searches from the start again.
 */
export function maskOfRowidList(snap: FacetSnapshot, rowids: Float64Array): Uint32Array {
  const mask = new Uint32Array(snap.alive.length);
  const added = snap.addedByRowid.size > 0 ? snap.addedByRowid : null;
  let from = 0;
  let last = -1;
  for (let i = 0; i < rowids.length; i++) {
    const rowid = rowids[i] as number;
    const slot = added?.get(rowid);
    if (slot !== undefined) setBit(mask, slot);
    else {
      if (rowid < last) from = 0;
      const at = loadedPosition(snap, rowid, from);
      if (at < snap.loaded.size && snap.rowidOfSlot[at] === rowid && hasBit(snap.alive, at)) setBit(mask, at);
      from = at;
      last = rowid;
    }
  }
  return mask;
}

/** Resolves sold-out stock to slots; synchronous, so a count sees it together with the slots it names. */
function applySoldOut(snap: FacetSnapshot, products: SoldOutProduct[]): void {
  const words = snap.capacity >>> 5;
  const soldOut = new Map<string, Uint32Array>();
  const colourSoldOut = new Map<string, Uint32Array>();
  const stockOf = new Map<number, SoldOutProduct>();
  const bitsOf = (sets: Map<string, Uint32Array>, key: string) => {
    let bits = sets.get(key);
    if (!bits) {
      bits = new Uint32Array(words);
      sets.set(key, bits);
    }
    return bits;
  };
  // A slot's sizes are its size terms' keys: whether every size is sold out (in every colour, or in one
  // colour) is worked out against them, so a stock row of a size it no longer has changes nothing. Plain
  // arrays and loops: at 100,000 products thousands of products have a sold-out row, and this runs on the
  // main thread with every refresh.
  const sizeTerms = [...snap.terms.values()].filter((t) => t.kind === 'size');
  const every = new Uint32Array(words);
  const held: string[] = [];
  // Slots by id of the products sold out before: most still are at the next refresh, and finding a loaded
  // product's slot by id is a binary search over text.
  const before = new Map<string, number>();
  for (const [slot, p] of snap.soldOutStockOf) before.set(p.product_id, slot);
  for (const p of products) {
    const slot = p.slot ?? knownSlot(snap, before, p.product_id) ?? slotOfId(snap, p.product_id);
    if (slot === undefined) continue;
    stockOf.set(slot, p);
    for (const size of p.sizes) setBit(bitsOf(soldOut, sizeKeyOf(size)), slot);
    held.length = 0;
    for (const t of sizeTerms) if (holds(t.slots, slot)) held.push(t.key);
    if (held.length === 0) continue;
    if (p.sizes.length > 0 && held.every((key) => hasBit(soldOut.get(key), slot))) setBit(every, slot);
    for (const [colour, sizes] of p.byColour) {
      if (held.every((key) => sizes.some((s) => sizeKeyOf(s) === key))) {
        setBit(bitsOf(colourSoldOut, colour), slot);
      }
    }
  }
  snap.soldOut = soldOut;
  snap.everySizeSoldOut = every;
  snap.colourSoldOut = colourSoldOut;
  snap.soldOutStockOf = stockOf;
}

/** The live slot `before` gives an id, unless the product changed since (its slot is then dead). */
function knownSlot(snap: FacetSnapshot, before: Map<string, number>, id: string): number | undefined {
  const slot = before.get(id);
  return slot !== undefined && hasBit(snap.alive, slot) && !snap.addedById.has(id) ? slot : undefined;
}

/** A size's facet key, remembered: a catalogue has few sizes, and sold-out rows name them over and over. */
function sizeKeyOf(size: string): string {
  let key = sizeKeys.get(size);
  if (key === undefined) {
    if (sizeKeys.size >= 10_000) sizeKeys.clear();
    key = facetKey('size', size);
    sizeKeys.set(size, key);
  }
  return key;
}
const sizeKeys = new Map<string, string>();

/**
 * Brings a snapshot to `revision` by applying the products changed since it was built. Null when a fresh
 * load is due instead (too much changed, or the log no longer reaches back to it): the caller loads one,
 * off the main thread, while this snapshot keeps answering.
 */
export async function refreshFacetSnapshot(
  db: DbOrTx,
  snap: FacetSnapshot,
  revision: string,
): Promise<FacetSnapshot | null> {
  const oldest = await db
    .selectFrom('catalogue_changes')
    .select((eb) => eb.fn.min('seq').as('seq'))
    .executeTakeFirst();
  if (oldest?.seq != null && Number(oldest.seq) > snap.seq + 1) return null;
  const changes = await db
    .selectFrom('catalogue_changes')
    .select(['seq', 'product_id'])
    .where('seq', '>', snap.seq)
    .orderBy('seq')
    .limit(MAX_CHANGES * 2 + 1)
    .execute();
  const ids = [...new Set(changes.map((c) => c.product_id))];
  const tooMany = changes.length > MAX_CHANGES * 2 || ids.length > MAX_CHANGES;
  if (tooMany || snap.dead + ids.length > Math.max(MAX_CHANGES, snap.size / 4)) return null;

  // The changed products as they are now (gone ones simply have no rows).
  const products: ProductRow[] = [];
  const facets: Array<{ id: string; kind: FacetKind; key: string; value: string }> = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    const chunk = ids.slice(i, i + IN_CHUNK);
    products.push(
      ...(await db
        .selectFrom('products as p')
        .innerJoin('product_search_ids as s', 's.product_id', 'p.id')
        .select([
          's.rowid as rowid',
          'p.id as id',
          'p.price_minor as price',
          'p.page_order as page_order',
          'p.created_at as created_at',
        ])
        .where('p.id', 'in', chunk)
        .execute()),
    );
    facets.push(
      ...(await db
        .selectFrom('product_facets')
        .select(['product_id as id', 'kind', 'value_key as key', 'value'])
        .where('product_id', 'in', chunk)
        .execute()),
    );
  }
  const soldOut = await soldOutRows(db);

  // Applied in one synchronous step, so a count never sees a product half changed.
  snap.counter = null;
  snap.colourSellable = null;
  for (const id of ids) {
    const slot = slotOfId(snap, id);
    if (slot === undefined) continue;
    clearBit(snap.alive, slot);
    snap.addedByRowid.delete(snap.rowidOfSlot[slot] ?? -1);
    snap.addedById.delete(id);
    snap.dead++;
  }
  const firstAdded = snap.size;
  for (const p of products) addProduct(snap, p);
  const added = Uint32Array.from({ length: snap.size - firstAdded }, (_, i) => firstAdded + i);
  const keys = sortKeys(snap);
  for (const sort of SLOT_SORTS) snap.orders[sort] = mergeSlots(sort, keys, snap.orders[sort], added);
  const appended = new Map<Term, number[]>();
  for (const f of facets) {
    const slot = snap.addedById.get(f.id);
    if (slot === undefined) continue;
    const id = termId(f.kind, f.key, f.value);
    let term = snap.terms.get(id);
    if (!term) {
      term = { kind: f.kind, key: f.key, value: f.value, slots: { list: new Uint32Array(0) } };
      snap.terms.set(id, term);
    }
    if ('bits' in term.slots) {
      setBit(term.slots.bits, slot);
      continue;
    }
    const pending = appended.get(term) ?? [];
    pending.push(slot);
    appended.set(term, pending);
  }
  // New slots are the highest yet, so a list stays sorted with them at its end.
  for (const [term, slots] of appended) {
    if (!('list' in term.slots)) continue;
    const list = new Uint32Array(term.slots.list.length + slots.length);
    list.set(term.slots.list);
    list.set(slots, term.slots.list.length);
    term.slots = { list };
  }
  applySoldOut(snap, soldOut);
  if (changes.length > 0) {
    // What the words matched is of the products as they were (kept under the old seq): let it go rather
    // than wait for the caches to evict it.
    snap.wordMasks.clear();
    snap.rankedSlots.clear();
  }
  snap.revision = revision;
  snap.seq = changes.at(-1)?.seq ?? snap.seq;
  return snap;
}

function addProduct(snap: FacetSnapshot, p: ProductRow): void {
  if (snap.size === snap.capacity) grow(snap);
  const slot = snap.size++;
  setBit(snap.alive, slot);
  snap.price[slot] = Number(p.price);
  snap.pageOrder[slot] = Number(p.page_order);
  snap.createdAt[slot] = toMillis(p.created_at);
  snap.rowidOfSlot[slot] = p.rowid;
  snap.addedByRowid.set(p.rowid, slot);
  snap.addedById.set(p.id, slot);
  snap.idOfAdded.set(slot, p.id);
}

/** What the listing orders compare, for this snapshot's slots. */
export function sortKeys(snap: FacetSnapshot): SortKeys {
  return {
    price: snap.price,
    pageOrder: snap.pageOrder,
    createdAt: snap.createdAt,
    rowid: snap.rowidOfSlot,
    idOf: (slot) => idOfSlot(snap, slot),
  };
}

/** The product id of a slot (live or dead). */
export function idOfSlot(snap: FacetSnapshot, slot: number): string {
  const { ids, idStart, size } = snap.loaded;
  return slot < size
    ? ids.slice(idStart[slot] ?? 0, idStart[slot + 1] ?? 0)
    : (snap.idOfAdded.get(slot) ?? '');
}

/** Doubles the room for slots; every bitset grows with it. */
function grow(snap: FacetSnapshot): void {
  const capacity = Math.max(64, snap.capacity * 2);
  const words = capacity >>> 5;
  const widen = (a: Uint32Array) => {
    const b = new Uint32Array(words);
    b.set(a);
    return b;
  };
  snap.alive = widen(snap.alive);
  const widen64 = (a: Float64Array) => {
    const b = new Float64Array(capacity);
    b.set(a);
    return b;
  };
  snap.price = widen64(snap.price);
  snap.pageOrder = widen64(snap.pageOrder);
  snap.createdAt = widen64(snap.createdAt);
  snap.rowidOfSlot = widen64(snap.rowidOfSlot);
  for (const t of snap.terms.values()) if ('bits' in t.slots) t.slots = { bits: widen(t.slots.bits) };
  snap.capacity = capacity;
}

/**
 * What the price sorts, the price bounds and the price range read (decision 0037): the price each card
 * shows, per slot, and the slots in its order both ways. The snapshot's own prices and orders while no sale
 * runs; while one does, the prices charged, made once per revision (a sale starting or ending moves it).
 */
export type CardPrices = {
  price: Float64Array;
  orders: { 'price-asc': Uint32Array; 'price-desc': Uint32Array };
};

/** The regular prices: the snapshot's own arrays, nothing copied. */
export function regularPrices(snap: FacetSnapshot): CardPrices {
  return {
    price: snap.price,
    orders: { 'price-asc': snap.orders['price-asc'], 'price-desc': snap.orders['price-desc'] },
  };
}

export type FilterMasks = {
  everything: Uint32Array;
  /** A new mask for a chosen group each time it is asked; `everything` for the others. */
  maskFor: (kind: FacetKind) => Uint32Array;
  unpriced: () => Uint32Array;
};

/**
 * A filter's masks over the snapshot, never written to once made (a mask may be the snapshot's own `alive`
 * or a word's). `everything` holds the products it finds (the listing); `maskFor` holds, per facet group,
 * the products found with that group's own choice left out ("what if I picked this too"); `unpriced` the
 * products found without the price condition (for the price range). Synchronous: a refresh cannot change
 * the snapshot halfway. The masks it makes come from `take`: inside a scratch step (scratch-masks.ts) they
 * are used there and never kept.
 */
export function filterMasks(
  snap: FacetSnapshot,
  f: CatalogueFilter,
  text: Uint32Array | null,
  take: TakeMask = freshMask,
  onSale: Uint32Array | null = null,
  prices: CardPrices = regularPrices(snap),
): FilterMasks {
  // Text, on sale and price narrow every answer below, so they are folded into one base mask of live slots.
  const searched = text ?? snap.alive;
  const base = f.onSale
    ? intersect(searched, onSale ?? take(searched.length), take(searched.length))
    : searched;
  const priced = f.priceMin !== undefined || f.priceMax !== undefined;
  const withPrice = priced ? intersect(base, priceMask(snap, f, take, prices), take(base.length)) : base;

  // One mask per group with a choice: the products holding any chosen value. A single bitset (one colour,
  // one maker) is used as it is, read only, rather than copied into a mask of its own.
  const chosen = new Map<FacetKind, Uint32Array>();
  const parts: SlotSet[] = [];
  for (const { kind, field } of FACET_GROUPS) {
    const keys = new Set(facetKeys(kind, f[field]));
    if (keys.size === 0) continue;
    parts.length = 0;
    for (const t of snap.terms.values()) {
      if (t.kind !== kind || !keys.has(t.key)) continue;
      if (kind === 'color') {
        parts.push(sellableSlots(snap, t));
        continue;
      }
      const sold = unsoldSizes(snap, f, t);
      if (!sold) {
        parts.push(t.slots);
        continue;
      }
      // A value's holders less its sold-out ones.
      const held = take(base.length);
      union(held, t.slots);
      parts.push({ bits: andNot(held, sold, held) });
    }
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only && 'bits' in only && only.bits.length === base.length) {
      chosen.set(kind, only.bits);
      continue;
    }
    const mask = take(base.length);
    for (const part of parts) union(mask, part);
    chosen.set(kind, mask);
  }
  // In stock only with no size chosen: any size that can be bought (or no sizes at all). Counted as the
  // size group's choice, so the size options still say what picking one of them would give.
  if (f.inStock && !chosen.has('size')) {
    chosen.set('size', andNot(snap.alive, snap.everySizeSoldOut, take(snap.alive.length)));
  }
  const allBut = (start: Uint32Array, except?: FacetKind): Uint32Array => {
    let m = start;
    let own: Uint32Array | undefined;
    for (const [kind, mask] of chosen) {
      if (kind === except) continue;
      // One new mask for the whole chain: after the first, each intersection is written over it.
      own ??= take(start.length);
      m = intersect(m, mask, own);
    }
    return m;
  };
  const everything = allBut(withPrice);
  // Worked out when asked: a listing's page needs only `everything`.
  return {
    everything,
    maskFor: (kind) => (chosen.has(kind) ? allBut(withPrice, kind) : everything),
    unpriced: () => allBut(base),
  };
}

/**
 * The products of `mask` (placed at `at`) in `slots`, less the `sold` ones (in stock only: a size counts for
 * a product only where it is not sold out). A rare value's few slots are looked up in the mask.
 */
function countTerm(
  counter: BitCounter,
  slots: SlotSet,
  mask: Uint32Array,
  at: number,
  sold: Uint32Array | undefined,
): number {
  if ('bits' in slots) {
    const bits = counter.at(slots.bits);
    return sold ? counter.andNotCount(at, bits, counter.at(sold)) : counter.andCount(at, bits);
  }
  let n = 0;
  for (const slot of slots.list) if (hasBit(mask, slot) && !hasBit(sold, slot)) n++;
  return n;
}

/** In stock only, a size's holders that have it sold out in every colour: its count leaves them out. */
function unsoldSizes(snap: FacetSnapshot, f: CatalogueFilter, t: Term): Uint32Array | undefined {
  return f.inStock && t.kind === 'size' ? snap.soldOut.get(t.key) : undefined;
}

/**
 * The products a colour term finds: its holders less those with none of their sizes buyable in it (a colour
 * filter means "has this colour to sell", decision 0036). Every colour term's, made at the first ask.
 */
function sellableSlots(snap: FacetSnapshot, t: Term): SlotSet {
  snap.colourSellable ??= colourSellable(snap);
  return snap.colourSellable.get(t) ?? t.slots;
}

/** The counter of the snapshot's bitsets as they are now: its terms', colours' sellable and sold-out sizes'. */
function counterOf(snap: FacetSnapshot, sellable: Map<Term, SlotSet>): BitCounter {
  const sets = new Set<Uint32Array>();
  for (const t of snap.terms.values()) if ('bits' in t.slots) sets.add(t.slots.bits);
  for (const slots of sellable.values()) if ('bits' in slots) sets.add(slots.bits);
  for (const bits of snap.soldOut.values()) sets.add(bits);
  return bitCounter([...sets], snap.alive.length, FACET_GROUPS.length);
}

function colourSellable(snap: FacetSnapshot): Map<Term, SlotSet> {
  const out = new Map<Term, SlotSet>();
  for (const t of snap.terms.values()) {
    if (t.kind !== 'color') continue;
    const sold = snap.colourSoldOut.get(t.key);
    if (!sold) out.set(t, t.slots);
    else if ('bits' in t.slots) out.set(t, { bits: andNot(t.slots.bits, sold) });
    else out.set(t, { list: t.slots.list.filter((slot) => !hasBit(sold, slot)) });
  }
  return out;
}

/**
 * Facet counts with the same meaning as the SQL they replace: each chosen group is counted without itself
 * ("what if I picked this too"), free groups and the result with every condition, the price range without
 * the price condition.
 */
export function countFacets(
  snap: FacetSnapshot,
  f: CatalogueFilter,
  text: Uint32Array | null,
  onSale: Uint32Array | null = null,
  prices: CardPrices = regularPrices(snap),
): RawFacetCounts & { revision: string } {
  // Synchronous: a refresh cannot change the snapshot halfway through a count, so the counts are of the
  // revision it has now (the answer cache keeps them under it).
  return withScratchMasks((take) =>
    countWith(snap, f, filterMasks(snap, f, text, take, onSale, prices), onSale, prices, take),
  );
}

function countWith(
  snap: FacetSnapshot,
  f: CatalogueFilter,
  { everything, maskFor, unpriced }: FilterMasks,
  onSale: Uint32Array | null,
  prices: CardPrices,
  take: TakeMask,
): RawFacetCounts & { revision: string } {
  // Per group, by key (no string made per term and request), in the order the values were first counted.
  const byKey = new Map<FacetKind, Map<string, { key: string; value: string; count: number }>>();
  snap.colourSellable ??= colourSellable(snap);
  const sellable = snap.colourSellable;
  snap.counter ??= counterOf(snap, sellable);
  const counter = snap.counter;
  // Each group's mask is placed once and counted against every one of its values.
  const masks = new Map<FacetKind, Uint32Array>();
  const placed = new Map<Uint32Array, number>();
  for (const { kind } of FACET_GROUPS) {
    const mask = maskFor(kind);
    masks.set(kind, mask);
    if (!placed.has(mask)) placed.set(mask, counter.put(placed.size, mask));
  }
  for (const t of snap.terms.values()) {
    const mask = masks.get(t.kind);
    const at = mask && placed.get(mask);
    if (!mask || at === undefined) continue;
    const slots = t.kind === 'color' ? (sellable.get(t) ?? t.slots) : t.slots;
    const count = countTerm(counter, slots, mask, at, unsoldSizes(snap, f, t));
    if (count === 0) continue;
    // Several spellings of one value (Mint, mint) count together and show the lowest, as SQL's min().
    let keys = byKey.get(t.kind);
    if (!keys) {
      keys = new Map();
      byKey.set(t.kind, keys);
    }
    const seen = keys.get(t.key);
    if (seen) {
      seen.count += count;
      if (t.value < seen.value) seen.value = t.value;
      continue;
    }
    keys.set(t.key, { key: t.key, value: t.value, count });
  }
  const counted = new Map([...byKey].map(([kind, keys]) => [kind, [...keys.values()]]));
  // On sale is a condition on every answer: its count is of the products found that are on sale.
  const onSaleCount = onSale ? countBits(intersect(everything, onSale, take(everything.length))) : 0;
  return { counted, price: priceRange(prices, unpriced()), onSale: onSaleCount, revision: snap.revision };
}

/**
 * The slots priced within the filter's bounds, dead ones too (the caller's base mask drops them): the run of
 * the price order between two binary searches, so a narrow range costs only its own slots.
 */
function priceMask(
  snap: FacetSnapshot,
  f: CatalogueFilter,
  take: TakeMask,
  { price, orders }: CardPrices,
): Uint32Array {
  const mask = take(snap.alive.length);
  const order = orders['price-asc'];
  const firstFrom = (bound: number, inclusive: boolean) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = price[order[mid] ?? 0] ?? 0;
      if (inclusive ? p < bound : p <= bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const from = f.priceMin === undefined ? 0 : firstFrom(f.priceMin, true);
  const to = f.priceMax === undefined ? order.length : firstFrom(f.priceMax, false);
  // The fewer of the slots inside and those outside are touched: a bound near the end of the range leaves
  // most of a 100,000-product catalogue inside. Bits past the last slot may be set; every use intersects
  // with live slots.
  if ((to - from) * 2 <= order.length) {
    for (let i = from; i < to; i++) setBit(mask, order[i] ?? 0);
    return mask;
  }
  mask.fill(0xffffffff);
  for (let i = 0; i < from; i++) clearBit(mask, order[i] ?? 0);
  for (let i = to; i < order.length; i++) clearBit(mask, order[i] ?? 0);
  return mask;
}

function priceRange({ price, orders }: CardPrices, mask: Uint32Array): { min: number; max: number } | null {
  // The cheapest and dearest held slots are the first and last of the price order the mask holds: for a
  // broad mask a few steps from each end, where visiting every slot took 100,000 at 100,000 products. A
  // narrow mask would make those walks long: past a budget of the mask's length in words, every slot is
  // visited as before.
  const order = orders['price-asc'];
  const budget = Math.min(order.length, mask.length);
  const held = (i: number) => hasBit(mask, order[i] ?? 0);
  let first = 0;
  while (first < budget && !held(first)) first++;
  let last = order.length - 1;
  while (last >= order.length - budget && !held(last)) last--;
  if (first < budget && last >= order.length - budget) {
    return { min: price[order[first] as number] ?? 0, max: price[order[last] as number] ?? 0 };
  }
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  eachSlot(mask, (slot) => {
    const p = price[slot] ?? 0;
    if (p < min) min = p;
    if (p > max) max = p;
  });
  return min === Number.POSITIVE_INFINITY ? null : { min, max };
}
