import type { CardColour, ProductCard } from '@shared/catalogue';
import { colourSlug } from '@shared/colours';

/** What a card buys and shows of a product with colours (nothing changes for a product without). */
export type CardPurchase = {
  /** The colour the card buys: null for a product without colours. */
  colour: CardColour | null;
  /** The price shown and seen when adding: the colour's own, when it has one. */
  priceMinor: number;
  /** Sizes the card cannot buy: sold out in every colour, and those sold out in the card's colour. */
  soldOutSizes: string[];
  /** Of those, the ones other colours still have (the size list says "sold out in Teal"). */
  soldOutInColour: string[];
};

/**
 * The colour a card buys: the one it was found by (a colour filter, whose card is that colour's already:
 * its price and sold-out sizes), else the first with a size left to buy, else the first. A plain card's own
 * marks are of sizes sold out in every colour; its quick Add to cart cannot buy those sold out in its colour
 * either, though other colours have them.
 */
export function cardPurchase(product: ProductCard): CardPurchase {
  const colours = product.colours ?? [];
  const own = product.soldOutSizes ?? [];
  const found = product.colour ? colours.find((c) => c.name === product.colour) : undefined;
  if (found || colours.length === 0) {
    return { colour: found ?? null, priceMinor: product.priceMinor, soldOutSizes: own, soldOutInColour: [] };
  }
  const buyable = (c: CardColour) =>
    product.sizes.length === 0 || (c.soldOutSizes?.length ?? 0) < product.sizes.length;
  const colour = colours.find(buyable) ?? colours[0] ?? null;
  const inColour = (colour?.soldOutSizes ?? []).filter((s) => !own.includes(s));
  return {
    colour,
    priceMinor: colour?.priceMinor ?? product.priceMinor,
    soldOutSizes: [...own, ...inColour],
    soldOutInColour: inColour,
  };
}

/** Where a card leads: the product, in the colour the card was found by. */
export function cardHref(productPath: string, product: Pick<ProductCard, 'colour'>): string {
  return product.colour
    ? `${productPath}?colour=${encodeURIComponent(colourSlug(product.colour))}`
    : productPath;
}
