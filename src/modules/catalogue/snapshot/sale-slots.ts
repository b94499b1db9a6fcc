import type { DbOrTx } from '../../../db/database.js';
import { unitDiscount } from '../../../shared/discounts.js';
import { movesCardPrice, type SaleReach } from '../on-sale.js';
import {
  type CardPrices,
  type FacetSnapshot,
  reachSlots,
  regularPrices,
  slotOfId,
  sortKeys,
} from './facet-snapshot.js';
import { mergeSlots, type SortKeys } from './slot-orders.js';
import { clearBit, eachSlot, hasBit, intersect, setBit } from './slot-sets.js';

/**
 * What the running sales make of the snapshot's slots (decision 0037): the live slots on sale (null when no
 * sale runs), and the price each card shows. The same as on-sale.ts's SQL.
 */
export type SaleSlots = { onSale: Uint32Array | null; prices: CardPrices };

/**
 * The slots of the running sales' `reaches` for the snapshot's revision. A card's price is its price less
 * the most any sale of the product (of no colour in particular) takes off a unit, as bestSale prices it.
 * Made once per revision (a sale starting or ending moves it) and kept beside the snapshot; concurrent
 * listings of one revision share the one piece of work.
 */
export function saleSlots(
  db: DbOrTx,
  snap: FacetSnapshot,
  reaches: readonly SaleReach[],
): SaleSlots | Promise<SaleSlots> {
  if (reaches.length === 0) return { onSale: null, prices: regularPrices(snap) };
  const held = slotsOf.get(snap);
  if (held && held.revision === snap.revision && held.size === snap.size) return held.slots;
  const revision = snap.revision;
  const size = snap.size;
  const slots = otherCurrencies(db, reaches).then((others) => {
    // A refresh may have come in while the currencies were read: worked out for the snapshot as it is
    // now, but kept only when that is still the revision the reaches are of.
    const made = slotsOfSales(snap, reaches, others);
    if (snap.revision === revision && snap.size === size) {
      slotsOf.set(snap, { revision, size, slots: made });
    } else if (slotsOf.get(snap)?.revision === revision) {
      slotsOf.delete(snap);
    }
    return made;
  });
  slotsOf.set(snap, { revision, size, slots });
  // A failed read (PostgreSQL ending a connection) is not kept: every later listing of this revision would
  // get the same failure until a write moved the revision on. Its caller, and any sharing it, still see it.
  slots.catch(() => {
    if (slotsOf.get(snap)?.slots === slots) slotsOf.delete(snap);
  });
  return slots;
}

const slotsOf = new WeakMap<
  FacetSnapshot,
  { revision: string; size: number; slots: SaleSlots | Promise<SaleSlots> }
>();

/**
 * Per currency of a fixed-amount sale, the products priced in another currency, which it does not reach
 * (a fixed amount is of one currency). Usually none: a shop sells in one currency.
 */
async function otherCurrencies(db: DbOrTx, reaches: readonly SaleReach[]): Promise<Map<string, string[]>> {
  const currencies = new Set(reaches.flatMap((r) => (r.value.type === 'fixed' ? [r.value.currency] : [])));
  const out = new Map<string, string[]>();
  for (const currency of currencies) {
    const rows = await db.selectFrom('products').select('id').where('currency', '<>', currency).execute();
    out.set(
      currency,
      rows.map((r) => r.id),
    );
  }
  return out;
}

function slotsOfSales(
  snap: FacetSnapshot,
  reaches: readonly SaleReach[],
  others: Map<string, string[]>,
): SaleSlots {
  const onSale = new Uint32Array(snap.alive.length);
  const price = snap.price.slice();
  const lowered = new Uint32Array(snap.alive.length);
  for (const r of reaches) {
    const reach = intersect(reachSlots(snap, r), snap.alive, new Uint32Array(snap.alive.length));
    const value = r.value;
    if (value.type === 'fixed') {
      for (const id of others.get(value.currency) ?? []) {
        const slot = slotOfId(snap, id);
        if (slot !== undefined) clearBit(reach, slot);
      }
    }
    for (let i = 0; i < onSale.length; i++) onSale[i] = (onSale[i] ?? 0) | (reach[i] ?? 0);
    // A sale of chosen colours prices those colours' swatches, not the card's own price.
    if (!movesCardPrice(r)) continue;
    // Products of other currencies are out of a fixed amount's reach (above): the rest are in its own.
    const currency = value.type === 'fixed' ? value.currency : '';
    eachSlot(reach, (slot) => {
      const regular = snap.price[slot] ?? 0;
      const charged = regular - unitDiscount(value, regular, currency);
      if (charged < (price[slot] ?? 0)) {
        price[slot] = charged;
        setBit(lowered, slot);
      }
    });
  }
  if (!lowered.some((word) => word !== 0)) return { onSale, prices: regularPrices(snap) };
  const keys: SortKeys = { ...sortKeys(snap), price };
  // Slots no sale lowers keep their places (their key is unchanged); the lowered ones are merged in anew.
  const reorder = (sort: 'price-asc' | 'price-desc') => {
    const order = snap.orders[sort];
    const kept = order.filter((slot) => !hasBit(lowered, slot));
    const moved = order.filter((slot) => hasBit(lowered, slot));
    return mergeSlots(sort, keys, kept, moved);
  };
  const orders = { 'price-asc': reorder('price-asc'), 'price-desc': reorder('price-desc') };
  return { onSale, prices: { price, orders } };
}
