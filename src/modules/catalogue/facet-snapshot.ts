import { sql } from 'kysely';
import type { DbOrTx, FacetKind } from '../../db/database.js';
import { groupConcat } from '../../db/engine-sql.js';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import { fullText } from './full-text.js';
import { FACET_GROUPS, facetKey, facetKeys } from './search-query.js';

/**
 * Every product's facet values and price in memory, as sets of product slots, for one storefront revision.
 * Counting facets in SQL reads a facet row per product per value: 300 ms for 'silk' at 100,000 products
 * (34,648 matches), which blocked the one server thread. Here a count is a popcount of two sets.
 *
 * A value held by many products is a bitset (one bit per slot); a rare one a sorted list of slots, so
 * memory stays near 4 bytes per facet row whatever the number of distinct tags. A changed product gets a
 * new slot and its old one is marked dead (`alive`), so changes apply without rebuilding the sets.
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
  rowidOfSlot: Float64Array;
  slotOfRowid: Map<number, number>;
  slotOfId: Map<string, number>;
  terms: Map<string, Term>;
  /**
   * Size key -> the slots whose that size is sold out, and the slots whose every size is: read again with
   * each load and refresh, since stock moves without touching catalogue_changes (the storefront revision
   * moves when a size turns sold out or back, which is what brings the refresh).
   */
  soldOut: Map<string, Uint32Array>;
  everySizeSoldOut: Uint32Array;
};

/** A (product, size) that cannot be bought now, as size_stock says. */
type SoldOutRow = { product_id: string; size: string };

type Term = { kind: FacetKind; key: string; value: string; slots: SlotSet };
type SlotSet = { bits: Uint32Array } | { list: number[] };

/** Counts per (kind, key, value), each a number of products, and the price range, for `assemble`. */
export type RawFacetCounts = {
  counted: Map<FacetKind, Array<{ key: string; value: string; count: number }>>;
  price: { min: number; max: number } | null;
};

const SEPARATOR = '\u001f';
/** Beyond this many changed products (or this share of dead slots) a fresh load is cheaper and smaller. */
const MAX_CHANGES = 2_000;
const IN_CHUNK = 500;

const termId = (kind: string, key: string, value: string) => `${kind}${SEPARATOR}${key}${SEPARATOR}${value}`;

function emptySnapshot(revision: string, seq: number, capacity: number): FacetSnapshot {
  const words = (capacity + 31) >>> 5;
  return {
    revision,
    seq,
    size: 0,
    capacity: words * 32,
    dead: 0,
    alive: new Uint32Array(words),
    price: new Float64Array(words * 32),
    rowidOfSlot: new Float64Array(words * 32),
    slotOfRowid: new Map(),
    slotOfId: new Map(),
    terms: new Map(),
    soldOut: new Map(),
    everySizeSoldOut: new Uint32Array(words),
  };
}

/** Reads the catalogue's facets once: about 0.9 s at 100,000 products, 0.1 s at 10,000. */
export async function loadFacetSnapshot(db: DbOrTx, revision: string): Promise<FacetSnapshot> {
  // The log position first: a change that lands while loading is then applied again later (harmless).
  const seq = await lastChange(db);
  const products = await sql<{ rowid: number; id: string; price: number }>`
    SELECT s.rowid AS rowid, p.id AS id, p.price_minor AS price
    FROM products p JOIN product_search_ids s ON s.product_id = p.id`.execute(db);
  const snap = emptySnapshot(revision, seq, products.rows.length);
  for (const p of products.rows) addProduct(snap, p);

  // One row per distinct value, with its products joined by a separator ids cannot contain (ids are
  // trimmed printable text): a few hundred rows instead of one per product and value.
  const values = await sql<{ kind: FacetKind; key: string; value: string; ids: string }>`
    SELECT kind, value_key AS key, value, ${groupConcat(db, sql.ref('product_id'), SEPARATOR)} AS ids
    FROM product_facets GROUP BY kind, value_key, value`.execute(db);
  for (const v of values.rows) {
    const slots: number[] = [];
    for (const id of v.ids.split(SEPARATOR)) {
      const slot = snap.slotOfId.get(id);
      if (slot !== undefined) slots.push(slot);
    }
    slots.sort((a, b) => a - b);
    snap.terms.set(termId(v.kind, v.key, v.value), {
      kind: v.kind,
      key: v.key,
      value: v.value,
      slots: toSlotSet(slots, snap.capacity),
    });
  }
  applySoldOut(snap, await soldOutRows(db));
  return snap;
}

/** The storefront's test of sold out (stock.repository's soldOutByProduct), for the whole catalogue. */
function soldOutRows(db: DbOrTx): Promise<SoldOutRow[]> {
  return db
    .selectFrom('size_stock')
    .select(['product_id', 'size'])
    .whereRef('on_hand', '<=', 'reserved')
    .execute();
}

/** Resolves sold-out rows to slots; synchronous, so a count sees them together with the slots they name. */
function applySoldOut(snap: FacetSnapshot, rows: SoldOutRow[]): void {
  const words = snap.capacity >>> 5;
  const soldOut = new Map<string, Uint32Array>();
  const touched = new Set<number>();
  for (const r of rows) {
    const slot = snap.slotOfId.get(r.product_id);
    if (slot === undefined) continue;
    const key = facetKey('size', r.size);
    let bits = soldOut.get(key);
    if (!bits) {
      bits = new Uint32Array(words);
      soldOut.set(key, bits);
    }
    setBit(bits, slot);
    touched.add(slot);
  }
  const sizeTerms = [...snap.terms.values()].filter((t) => t.kind === 'size');
  const every = new Uint32Array(words);
  for (const slot of touched) {
    const held = new Set<string>();
    for (const t of sizeTerms) if (holds(t.slots, slot)) held.add(t.key);
    if (held.size > 0 && [...held].every((key) => hasBit(soldOut.get(key), slot))) setBit(every, slot);
  }
  snap.soldOut = soldOut;
  snap.everySizeSoldOut = every;
}

function hasBit(bits: Uint32Array | undefined, slot: number): boolean {
  return bits !== undefined && (((bits[slot >>> 5] ?? 0) >>> (slot & 31)) & 1) === 1;
}

/** Whether a set holds a slot (lists are kept sorted). */
function holds(set: SlotSet, slot: number): boolean {
  if ('bits' in set) return hasBit(set.bits, slot);
  let lo = 0;
  let hi = set.list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = set.list[mid] ?? 0;
    if (v === slot) return true;
    if (v < slot) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

async function lastChange(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('catalogue_changes')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/**
 * Brings a snapshot to `revision` by applying the products changed since it was built, or loads a new one
 * when too much changed or the log no longer reaches back to it.
 */
export async function refreshFacetSnapshot(
  db: DbOrTx,
  snap: FacetSnapshot,
  revision: string,
): Promise<FacetSnapshot> {
  const oldest = await db
    .selectFrom('catalogue_changes')
    .select((eb) => eb.fn.min('seq').as('seq'))
    .executeTakeFirst();
  if (oldest?.seq != null && Number(oldest.seq) > snap.seq + 1) return loadFacetSnapshot(db, revision);
  const changes = await db
    .selectFrom('catalogue_changes')
    .select(['seq', 'product_id'])
    .where('seq', '>', snap.seq)
    .orderBy('seq')
    .limit(MAX_CHANGES * 2 + 1)
    .execute();
  const ids = [...new Set(changes.map((c) => c.product_id))];
  const tooMany = changes.length > MAX_CHANGES * 2 || ids.length > MAX_CHANGES;
  if (tooMany || snap.dead + ids.length > Math.max(MAX_CHANGES, snap.size / 4)) {
    return loadFacetSnapshot(db, revision);
  }

  // The changed products as they are now (gone ones simply have no rows).
  const products: Array<{ rowid: number; id: string; price: number }> = [];
  const facets: Array<{ id: string; kind: FacetKind; key: string; value: string }> = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    const chunk = ids.slice(i, i + IN_CHUNK);
    products.push(
      ...(await db
        .selectFrom('products as p')
        .innerJoin('product_search_ids as s', 's.product_id', 'p.id')
        .select(['s.rowid as rowid', 'p.id as id', 'p.price_minor as price'])
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
  for (const id of ids) {
    const slot = snap.slotOfId.get(id);
    if (slot === undefined) continue;
    snap.alive[slot >>> 5] = (snap.alive[slot >>> 5] ?? 0) & ~(1 << (slot & 31));
    snap.slotOfRowid.delete(snap.rowidOfSlot[slot] ?? -1);
    snap.slotOfId.delete(id);
    snap.dead++;
  }
  for (const p of products) addProduct(snap, p);
  for (const f of facets) {
    const slot = snap.slotOfId.get(f.id);
    if (slot === undefined) continue;
    const id = termId(f.kind, f.key, f.value);
    let term = snap.terms.get(id);
    if (!term) {
      term = { kind: f.kind, key: f.key, value: f.value, slots: { list: [] } };
      snap.terms.set(id, term);
    }
    // New slots are the highest yet, so a list stays sorted.
    if ('list' in term.slots) term.slots.list.push(slot);
    else setBit(term.slots.bits, slot);
  }
  applySoldOut(snap, soldOut);
  snap.revision = revision;
  snap.seq = changes.at(-1)?.seq ?? snap.seq;
  return snap;
}

function addProduct(snap: FacetSnapshot, p: { rowid: number; id: string; price: number }): void {
  if (snap.size === snap.capacity) grow(snap);
  const slot = snap.size++;
  setBit(snap.alive, slot);
  snap.price[slot] = p.price;
  snap.rowidOfSlot[slot] = p.rowid;
  snap.slotOfRowid.set(p.rowid, slot);
  snap.slotOfId.set(p.id, slot);
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
  const price = new Float64Array(capacity);
  price.set(snap.price);
  snap.price = price;
  const rowids = new Float64Array(capacity);
  rowids.set(snap.rowidOfSlot);
  snap.rowidOfSlot = rowids;
  for (const t of snap.terms.values()) if ('bits' in t.slots) t.slots = { bits: widen(t.slots.bits) };
  snap.capacity = capacity;
}

function toSlotSet(slots: number[], capacity: number): SlotSet {
  // A bitset costs capacity/8 bytes, a list about 4-8 bytes a slot: the bitset wins above capacity/32.
  if (slots.length * 32 < capacity) return { list: slots };
  const bits = new Uint32Array(capacity >>> 5);
  for (const s of slots) setBit(bits, s);
  return { bits };
}

function setBit(bits: Uint32Array, slot: number): void {
  bits[slot >>> 5] = (bits[slot >>> 5] ?? 0) | (1 << (slot & 31));
}

function union(a: Uint32Array, set: SlotSet): void {
  if ('bits' in set) {
    for (let i = 0; i < a.length; i++) a[i] = (a[i] ?? 0) | (set.bits[i] ?? 0);
  } else {
    for (const s of set.list) setBit(a, s);
  }
}

function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) & (b[i] ?? 0);
  return out;
}

function andNot(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) & ~(b[i] ?? 0);
  return out;
}

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function countIn(mask: Uint32Array, set: SlotSet): number {
  let n = 0;
  if ('bits' in set) {
    for (let i = 0; i < mask.length; i++) n += popcount32((mask[i] ?? 0) & (set.bits[i] ?? 0));
  } else {
    for (const s of set.list) if (((mask[s >>> 5] ?? 0) >>> (s & 31)) & 1) n++;
  }
  return n;
}

/**
 * Facet counts with the same meaning as the SQL they replace: each chosen group is counted without itself
 * ("what if I picked this too"), free groups and the result with every condition, the price range without
 * the price condition.
 */
export async function countFacets(
  db: DbOrTx,
  snap: FacetSnapshot,
  f: CatalogueFilter,
): Promise<RawFacetCounts> {
  const text = await fullText(db, f.q);
  const matched = text
    ? (
        await sql<{
          rowid: number;
        }>`SELECT ${text.rowid} AS rowid FROM ${text.table} WHERE ${text.match}`.execute(db)
      ).rows
    : null;
  // From here on synchronous: a refresh cannot change the snapshot halfway through a count.
  // Text and price narrow every answer below, so they are folded into one base mask of live slots.
  let base = snap.alive.slice();
  if (matched) {
    base = new Uint32Array(snap.alive.length);
    for (const { rowid } of matched) {
      const s = snap.slotOfRowid.get(rowid);
      if (s !== undefined) setBit(base, s);
    }
  }
  const priced = f.priceMin !== undefined || f.priceMax !== undefined;
  const withPrice = priced ? intersect(base, priceMask(snap, f)) : base;

  // In stock only: a size counts for a product only where it is not sold out.
  const sellable = (t: Term, mask: Uint32Array): Uint32Array => {
    const sold = f.inStock && t.kind === 'size' ? snap.soldOut.get(t.key) : undefined;
    return sold ? andNot(mask, sold) : mask;
  };

  // One mask per group with a choice: the products holding any chosen value.
  const chosen = new Map<FacetKind, Uint32Array>();
  for (const { kind, field } of FACET_GROUPS) {
    const keys = new Set(facetKeys(kind, f[field]));
    if (keys.size === 0) continue;
    const mask = new Uint32Array(base.length);
    for (const t of snap.terms.values()) {
      if (t.kind !== kind || !keys.has(t.key)) continue;
      const held = new Uint32Array(base.length);
      union(held, t.slots);
      union(mask, { bits: sellable(t, held) });
    }
    chosen.set(kind, mask);
  }
  // In stock only with no size chosen: any size that can be bought (or no sizes at all). Counted as the
  // size group's choice, so the size options still say what picking one of them would give.
  if (f.inStock && !chosen.has('size')) chosen.set('size', andNot(snap.alive, snap.everySizeSoldOut));
  const allBut = (start: Uint32Array, except?: FacetKind): Uint32Array => {
    let m = start;
    for (const [kind, mask] of chosen) if (kind !== except) m = intersect(m, mask);
    return m;
  };

  const everything = allBut(withPrice);
  const maskFor = new Map<FacetKind, Uint32Array>();
  for (const { kind } of FACET_GROUPS)
    maskFor.set(kind, chosen.has(kind) ? allBut(withPrice, kind) : everything);

  const counted = new Map<FacetKind, Array<{ key: string; value: string; count: number }>>();
  const byKey = new Map<string, { key: string; value: string; count: number }>();
  for (const t of snap.terms.values()) {
    const mask = maskFor.get(t.kind);
    if (!mask) continue;
    const count = countIn(sellable(t, mask), t.slots);
    if (count === 0) continue;
    // Several spellings of one value (Mint, mint) count together and show the lowest, as SQL's min().
    const id = `${t.kind}${SEPARATOR}${t.key}`;
    const seen = byKey.get(id);
    if (seen) {
      seen.count += count;
      if (t.value < seen.value) seen.value = t.value;
      continue;
    }
    const entry = { key: t.key, value: t.value, count };
    byKey.set(id, entry);
    const list = counted.get(t.kind) ?? [];
    list.push(entry);
    counted.set(t.kind, list);
  }
  return { counted, price: priceRange(snap, allBut(base)) };
}

function priceMask(snap: FacetSnapshot, f: CatalogueFilter): Uint32Array {
  const mask = new Uint32Array(snap.alive.length);
  const min = f.priceMin ?? Number.NEGATIVE_INFINITY;
  const max = f.priceMax ?? Number.POSITIVE_INFINITY;
  for (let s = 0; s < snap.size; s++) {
    const p = snap.price[s] ?? 0;
    if (p >= min && p <= max) setBit(mask, s);
  }
  return mask;
}

function priceRange(snap: FacetSnapshot, mask: Uint32Array): { min: number; max: number } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < mask.length; i++) {
    let word = mask[i] ?? 0;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      word &= word - 1;
      const p = snap.price[(i << 5) + bit] ?? 0;
      if (p < min) min = p;
      if (p > max) max = p;
    }
  }
  return min === Number.POSITIVE_INFINITY ? null : { min, max };
}
