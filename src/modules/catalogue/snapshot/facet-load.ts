import { sql } from 'kysely';
import type { DbOrTx, FacetKind } from '../../../db/database.js';
import { groupConcat } from '../../../db/engine-sql.js';
import { sizeSoldOut, soldOutOfProducts } from '../../stock/sold-out.js';
import { SLOT_SORTS, type SortKeys, sortSlots } from './slot-orders.js';
import { toSlotSet } from './slot-sets.js';

/**
 * A full read of the catalogue's facets, as typed arrays and a few strings: what a worker thread hands the
 * main thread by transfer (the arrays move, nothing is copied), and what the main thread turns into a
 * FacetSnapshot in a few milliseconds (snapshotFromLoad). Nothing in it needs a Map per product: building
 * two of 100,000 entries took 50-250 ms of the main thread on a busy 2-core machine, so an id's or a rowid's
 * slot is found by binary search in arrays built here instead.
 */
export type FacetLoad = {
  /** The last catalogue_changes entry, read before the data. */
  seq: number;
  /** Products, one slot each, in full-text rowid order: a rowid's slot is a binary search in rowidOfSlot. */
  size: number;
  /** Room for slots, a multiple of 32: price, rowidOfSlot and each bitset are that long. */
  capacity: number;
  price: Float64Array;
  pageOrder: Float64Array;
  /** Milliseconds since the epoch. */
  createdAt: Float64Array;
  rowidOfSlot: Float64Array;
  /** The slots in each of SLOT_SORTS' orders, one after another (size each): sorted here, off the main thread. */
  orders: Uint32Array;
  /** Every product id in slot order, end to end: slot s's is ids.slice(idStart[s], idStart[s + 1]). */
  ids: string;
  idStart: Uint32Array;
  /** The slots in their ids' order (JavaScript's string order): an id's slot is a binary search here. */
  slotsById: Uint32Array;
  /** One entry per distinct facet value. */
  terms: Array<{ kind: FacetKind; key: string; value: string }>;
  /** Term i's slots are sets[setStart[i] .. setStart[i + 1]]: a bitset where isBits[i] is 1, else a list. */
  sets: Uint32Array;
  setStart: Uint32Array;
  isBits: Uint8Array;
  soldOut: SoldOutProduct[];
};

/** A product as the snapshot keeps it. */
export type ProductRow = {
  rowid: number;
  id: string;
  price: number;
  page_order: number;
  created_at: unknown;
};

/** Milliseconds since the epoch of a timestamp as either engine returns it (ISO text, or a Date). */
export function toMillis(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  const ms = Date.parse(String(value));
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * What cannot be bought now of one product with a sold-out stock row (the rule of decision 0036, soldOutOf):
 * `sizes` sold out in every colour (a plain card's marks, "in stock only"), and per colour key the sizes sold
 * out in that colour (a colour's filter and a card found through it). Sizes spelled as the stock rows are.
 */
export type SoldOutProduct = {
  product_id: string;
  sizes: string[];
  byColour: Array<[string, string[]]>;
  /** Its slot, when a full load read it: found here, off the main thread (a binary search there). */
  slot?: number;
};

/** Joins the product ids of one facet value; ids cannot contain it (they are trimmed printable text). */
const SEPARATOR = '\u001f';

/** Reads the catalogue's facets once: about 0.9 s at 100,000 products, 0.1 s at 10,000. */
export async function readFacetLoad(db: DbOrTx): Promise<FacetLoad> {
  // The log position first: a change that lands while loading is then applied again later (harmless).
  const seq = await lastChange(db);
  const products = await sql<ProductRow>`
    SELECT s.rowid AS rowid, p.id AS id, p.price_minor AS price, p.page_order AS page_order,
      p.created_at AS created_at
    FROM products p JOIN product_search_ids s ON s.product_id = p.id
    ORDER BY s.rowid`.execute(db);
  // One row per distinct value, with its products joined: a few hundred rows instead of one per product
  // and value.
  const values = await sql<{ kind: FacetKind; key: string; value: string; ids: string }>`
    SELECT kind, value_key AS key, value, ${groupConcat(db, sql.ref('product_id'), SEPARATOR)} AS ids
    FROM product_facets GROUP BY kind, value_key, value`.execute(db);
  return packFacetLoad(seq, products.rows, values.rows, await soldOutRows(db));
}

function packFacetLoad(
  seq: number,
  products: ProductRow[],
  values: Array<{ kind: FacetKind; key: string; value: string; ids: string }>,
  soldOut: SoldOutProduct[],
): FacetLoad {
  const size = products.length;
  const capacity = ((size + 31) >>> 5) * 32;
  const price = new Float64Array(capacity);
  const pageOrder = new Float64Array(capacity);
  const createdAt = new Float64Array(capacity);
  const rowidOfSlot = new Float64Array(capacity);
  const idStart = new Uint32Array(size + 1);
  const slotOfId = new Map<string, number>();
  let offset = 0;
  for (const [slot, p] of products.entries()) {
    price[slot] = Number(p.price);
    pageOrder[slot] = Number(p.page_order);
    createdAt[slot] = toMillis(p.created_at);
    rowidOfSlot[slot] = p.rowid;
    slotOfId.set(p.id, slot);
    idStart[slot] = offset;
    offset += p.id.length;
  }
  idStart[size] = offset;
  const ids = products.map((p) => p.id).join('');
  for (const p of soldOut) {
    const slot = slotOfId.get(p.product_id);
    if (slot !== undefined) p.slot = slot;
  }
  // The default sort compares strings as `<` does, which is how the main thread searches them.
  const slotsById = Uint32Array.from([...slotOfId.keys()].sort(), (id) => slotOfId.get(id) ?? 0);
  const keys: SortKeys = {
    price,
    pageOrder,
    createdAt,
    rowid: rowidOfSlot,
    idOf: (slot) => products[slot]?.id ?? '',
  };
  const all = Uint32Array.from(products.keys());
  const orders = new Uint32Array(SLOT_SORTS.length * size);
  for (const [i, sort] of SLOT_SORTS.entries()) orders.set(sortSlots(sort, keys, all), i * size);

  const terms: FacetLoad['terms'] = [];
  const parts: Uint32Array[] = [];
  const setStart = new Uint32Array(values.length + 1);
  const isBits = new Uint8Array(values.length);
  let length = 0;
  for (const [i, v] of values.entries()) {
    const slots: number[] = [];
    for (const id of v.ids.split(SEPARATOR)) {
      const slot = slotOfId.get(id);
      if (slot !== undefined) slots.push(slot);
    }
    slots.sort((a, b) => a - b);
    const set = toSlotSet(slots, capacity);
    const words = 'bits' in set ? set.bits : set.list;
    terms.push({ kind: v.kind, key: v.key, value: v.value });
    isBits[i] = 'bits' in set ? 1 : 0;
    setStart[i] = length;
    parts.push(words);
    length += words.length;
  }
  setStart[values.length] = length;
  const sets = new Uint32Array(length);
  for (const [i, part] of parts.entries()) sets.set(part, setStart[i] ?? 0);
  return {
    seq,
    size,
    capacity,
    price,
    pageOrder,
    createdAt,
    rowidOfSlot,
    orders,
    ids,
    idStart,
    slotsById,
    terms,
    sets,
    setStart,
    isBits,
    soldOut,
  };
}

/** The arrays a load is made of, to be moved (not copied) to another thread. */
export function loadBuffers(load: FacetLoad): ArrayBuffer[] {
  return [
    load.price,
    load.pageOrder,
    load.createdAt,
    load.rowidOfSlot,
    load.orders,
    load.idStart,
    load.slotsById,
    load.sets,
    load.setStart,
    load.isBits,
  ].map((a) => a.buffer as ArrayBuffer);
}

/**
 * The storefront's test of sold out (stock.repository's soldOutStockOf), for the whole catalogue: only the
 * products with a sold-out row (few: the partial index size_stock_sold_out finds them) are read whole, their
 * every stock row and colour list, since a colour's own row, or its absence, decides what the all-colours
 * row means for it. Every other product has everything buyable in every colour.
 */
export async function soldOutRows(db: DbOrTx): Promise<SoldOutProduct[]> {
  const touched = db.selectFrom('size_stock as s').select('s.product_id').where(sizeSoldOut('s'));
  const [rows, products] = await Promise.all([
    db
      .selectFrom('size_stock')
      .select(['product_id', 'colour', 'size', 'on_hand', 'reserved'])
      .where('product_id', 'in', touched)
      .execute(),
    db.selectFrom('products').select(['id', 'colors']).where('id', 'in', touched).execute(),
  ]);
  return soldOutOfProducts(products, rows).map(([id, found]) => ({
    product_id: id,
    sizes: [...found.sizes],
    byColour: [...found.byColour].map(([colour, sizes]) => [colour, [...sizes]]),
  }));
}

async function lastChange(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('catalogue_changes')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
