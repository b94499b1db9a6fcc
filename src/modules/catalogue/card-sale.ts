import type { DbOrTx } from '../../db/database.js';
import type { CardColour, ProductCard, SalePrice } from '../../shared/catalogue.js';
import { bestSale, type Discount, isRunning } from '../../shared/discounts.js';
import {
  isOfTimeline,
  pricingInstant,
  type SaleTimeline,
  saleTimeline,
  storedPart,
  storefrontClock,
} from '../discounts/sale-timeline.js';
import { colourKeyOf } from './colour-key-memo.js';

/** The sales running at one instant: what a read of cards prices them with (chosen once per read). */
export type RunningSales = { sales: readonly Discount[]; now: Date };

/**
 * The sales running for the cards of `revision`, at the instant its prices are of (sale-timeline.ts): read
 * once per stored revision, so a read of cards costs no query for them. Null when none runs.
 */
export async function runningSalesOf(db: DbOrTx, revision: string): Promise<RunningSales | null> {
  const timeline = await saleTimeline(db, storedPart(revision));
  if (timeline.sales.length === 0) return null;
  // A revision that names its instant prices alike at every read: worked out once, and the same object
  // each time, so what is kept per running sales (their reach, on-sale.ts) is kept across requests.
  const fixed = isOfTimeline(timeline, revision);
  const kept = fixed ? runningOf.get(timeline)?.get(revision) : undefined;
  if (kept !== undefined) return kept;
  const now = pricingInstant(timeline, revision, storefrontClock(db).now());
  const sales = timeline.sales.filter((s) => s.kind === 'sale' && isRunning(s, now));
  const running = sales.length === 0 ? null : { sales, now };
  if (fixed) {
    const byRevision = runningOf.get(timeline) ?? new Map<string, RunningSales | null>();
    byRevision.set(revision, running);
    runningOf.set(timeline, byRevision);
  }
  return running;
}

/** Per timeline, its revisions' running sales: one per interval between its instants, so a few. */
const runningOf = new WeakMap<SaleTimeline, Map<string, RunningSales | null>>();

/** The sale price and badge of one unit, or null when no sale runs for it (bestSale, decision 0037). */
export function salePriceOf(
  running: RunningSales,
  item: {
    productId: string;
    tags: readonly string[];
    colourKey: string | null;
    unitPriceMinor: number;
    currency: string;
  },
): SalePrice | null {
  const sale = bestSale(running.sales, item, running.now);
  if (!sale) return null;
  return { salePriceMinor: item.unitPriceMinor - sale.unitDiscountMinor, salePercent: sale.percentOff };
}

/** When the sale running for an item ends (its end, or the owner's ending), null when it has none. */
export function saleEnd(running: RunningSales, item: Parameters<typeof salePriceOf>[1]): string | null {
  return bestSale(running.sales, item, running.now)?.endsAt ?? null;
}

/**
 * A card priced at the running sales: the product's sale (of no colour in particular) on the card, and a
 * colour's own only where it differs from what the card says of it (CardColour.salePriceMinor). The card
 * itself when nothing runs for it, so its JSON stays as it was.
 */
export function withSalePrices(
  card: ProductCard,
  tags: readonly string[],
  running: RunningSales,
): ProductCard {
  const item = { productId: card.id, tags, currency: card.currency };
  const own = salePriceOf(running, { ...item, colourKey: null, unitPriceMinor: card.priceMinor });
  let colours = card.colours;
  if (colours) {
    let changed = false;
    const named = coloursNamed(running);
    const priced = colours.map((c): CardColour => {
      const ownPrice = c.priceMinor !== undefined;
      // A colour at the product's price that no running sale names sells at the card's sale: the same
      // answer without pricing it (most colours of most cards; pricing each was most of a card read).
      if (!ownPrice && (named.size === 0 || !named.has(colourKeyOf(c.name)))) return c;
      const sale = salePriceOf(running, {
        ...item,
        colourKey: colourKeyOf(c.name),
        unitPriceMinor: c.priceMinor ?? card.priceMinor,
      });
      // A colour at the product's price sells at the card's sale unless a sale of chosen colours beats it.
      const same = !ownPrice && sale?.salePriceMinor === own?.salePriceMinor;
      if (!sale || same) return c;
      changed = true;
      return { ...c, salePriceMinor: sale.salePriceMinor, salePercent: sale.salePercent };
    });
    if (changed) colours = priced;
  }
  if (!own && colours === card.colours) return card;
  // Every field by name, as card-cache.ts makes a colour's card: a spread of the card was a tenth of a card
  // read. Fields left undefined are not in its JSON.
  return {
    id: card.id,
    title: card.title,
    description: card.description,
    manufacturer: card.manufacturer,
    priceMinor: card.priceMinor,
    currency: card.currency,
    salePriceMinor: own ? own.salePriceMinor : card.salePriceMinor,
    salePercent: own ? own.salePercent : card.salePercent,
    sizes: card.sizes,
    image: card.image,
    hasPaymentLink: card.hasPaymentLink,
    soldOut: card.soldOut,
    soldOutSizes: card.soldOutSizes,
    colours,
    colour: card.colour,
    colourImage: card.colourImage,
  } satisfies Record<keyof ProductCard, unknown>;
}

/** The colour keys the running sales are limited to (sales of chosen colours), kept per running sales. */
function coloursNamed(running: RunningSales): ReadonlySet<string> {
  let named = namedColours.get(running);
  if (!named) {
    named = new Set(running.sales.flatMap((s) => s.scope.colours ?? []));
    namedColours.set(running, named);
  }
  return named;
}
const namedColours = new WeakMap<RunningSales, ReadonlySet<string>>();
