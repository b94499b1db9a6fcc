import type { DbOrTx } from '../../../db/database.js';
import type { CatalogueFilter } from '../../../shared/storefront-input.js';
import type { SaleReach } from '../on-sale.js';
import { countFacets, type FacetSnapshot, filterMasks, regularPrices } from './facet-snapshot.js';
import { saleSlots } from './sale-slots.js';
import { withScratchMasks } from './scratch-masks.js';
import { pageOf, type SlotSort } from './slot-orders.js';
import { countBits } from './slot-sets.js';
import { matchesOf, relevancePage, textMatch } from './snapshot-text.js';

/**
 * A listing page answered from the facet snapshot (decision 26): the filter is a mask of slots, the page the
 * first of them in a presorted order, the count a popcount. Relevance is an order of the words' matches
 * worked out in memory (decision 27). The database is read only for words the snapshot has not seen yet; the
 * page is of slots: card-cache.ts finds their cards, kept with their sold-out sizes from the snapshot.
 */
export async function searchSnapshot(
  db: DbOrTx,
  snap: FacetSnapshot,
  f: CatalogueFilter,
  opts: { sort: SlotSort | 'relevance'; offset: number; limit: number; reaches?: readonly SaleReach[] },
): Promise<{ slots: number[]; count: number }> {
  const reaches = opts.reaches ?? [];
  const byPrice =
    f.priceMin !== undefined ||
    f.priceMax !== undefined ||
    opts.sort === 'price-asc' ||
    opts.sort === 'price-desc';
  const text = await textMatch(db, snap, f.q);
  // After the words: a refresh may apply while they are read, and the sale slots (kept per revision, made
  // from the snapshot as it is when asked) must be of the snapshot the synchronous part below reads.
  const { onSale, prices } =
    byPrice || f.onSale ? await saleSlots(db, snap, reaches) : { onSale: null, prices: regularPrices(snap) };
  // From here on synchronous: the page and the count are of one revision, and the masks they are worked
  // out in are scratch (scratch-masks.ts), given back before this returns.
  return withScratchMasks((take) => {
    const matches = text && matchesOf(snap, text, take);
    const listed = filterMasks(snap, f, matches, take, onSale, prices).everything;
    const count = countBits(listed);
    const order = (sort: SlotSort) =>
      sort === 'price-asc' || sort === 'price-desc' ? prices.orders[sort] : snap.orders[sort];
    const slots =
      opts.sort !== 'relevance'
        ? pageOf(order(opts.sort), listed, opts.offset, opts.limit, count)
        : text && matches
          ? relevancePage(snap, text, matches, { mask: listed, count }, opts, take)
          : pageOf(snap.orders.featured, listed, opts.offset, opts.limit, count);
    return { slots, count };
  });
}

/**
 * The facet counts of a filter over the snapshot: the words read (the one await), then counted
 * synchronously, in scratch masks, against the snapshot as it is then.
 */
export async function countOver(
  db: DbOrTx,
  snap: FacetSnapshot,
  f: CatalogueFilter,
  reaches: readonly SaleReach[] = [],
) {
  const text = await textMatch(db, snap, f.q);
  // The price range is of the prices the cards show: a sale's where one runs. No sale running: nothing
  // on sale to mask or count (the count is 0). Asked after the words, as in searchSnapshot.
  const { onSale, prices } = await saleSlots(db, snap, reaches);
  return withScratchMasks((take) =>
    countFacets(snap, f, text && matchesOf(snap, text, take), onSale, prices),
  );
}
