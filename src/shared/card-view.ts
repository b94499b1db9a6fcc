import type { CardColour, ProductCard } from './catalogue.js';

/**
 * What a card shows and buys of a product with colours (nothing changes for a product without), from the
 * card as the server sends it: the storefront's card and the server's tests read it alike.
 */
export type CardView = {
  /** The colour the card buys: null for a product without colours. */
  colour: CardColour | null;
  /** The price shown and seen when adding: the colour's own, when it has one. */
  priceMinor: number;
  /** Sizes the card cannot buy: sold out in every colour, and those sold out in the card's colour. */
  soldOutSizes: string[];
  /** Of those, the ones other colours still have (the size list says "sold out in Teal"). */
  soldOutInColour: string[];
  /** Nothing left to buy: every size sold out (in the card's colour, for a product with colours). */
  soldOut: boolean;
  /** The picture: the photo of the colour the card was found by, when that colour has its own. */
  image: ProductCard['image'];
};

/**
 * The colour a card buys: the one it was found by (a colour filter), else the first with a size left to
 * buy, else the first; with that colour's price and what it cannot buy. A card's own marks are of sizes
 * sold out in every colour; its quick Add to cart cannot buy those sold out in its colour either, though
 * other colours have them.
 */
export function cardView(product: ProductCard): CardView {
  const colours = product.colours ?? [];
  const own = product.soldOutSizes ?? [];
  if (colours.length === 0) {
    return {
      colour: null,
      priceMinor: product.priceMinor,
      soldOutSizes: own,
      soldOutInColour: [],
      soldOut: product.soldOut,
      image: product.image,
    };
  }
  const buyable = (c: CardColour) =>
    product.sizes.length === 0 || (c.soldOutSizes?.length ?? 0) < product.sizes.length;
  const found = product.colour ? colours.find((c) => c.name === product.colour) : undefined;
  const colour = found ?? colours.find(buyable) ?? colours[0] ?? null;
  const inColour = (colour?.soldOutSizes ?? []).filter((s) => !own.includes(s));
  const soldOutSizes = [...own, ...inColour];
  return {
    colour,
    priceMinor: colour?.priceMinor ?? product.priceMinor,
    soldOutSizes,
    soldOutInColour: inColour,
    soldOut:
      product.soldOut || (product.sizes.length > 0 && product.sizes.every((s) => soldOutSizes.includes(s))),
    image: product.colourImage ?? product.image,
  };
}
