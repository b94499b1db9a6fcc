import type { CardColour, ProductCard, SalePrice } from './catalogue.js';

/**
 * What a card shows and buys of a product with colours (nothing changes for a product without), from the
 * card as the server sends it: the storefront's card and the server's tests read it alike.
 */
export type CardView = {
  /** The colour the card buys: null for a product without colours. */
  colour: CardColour | null;
  /** The price shown and seen when adding: the colour's own, when it has one. */
  priceMinor: number;
  /** The price charged while a sale runs for it (the card's colour's, else the card's) and its badge. */
  sale: SalePrice | null;
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
      sale: cardSale(product),
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
    sale: colour ? colourSale(product, colour) : cardSale(product),
    soldOutSizes,
    soldOutInColour: inColour,
    soldOut:
      product.soldOut || (product.sizes.length > 0 && product.sizes.every((s) => soldOutSizes.includes(s))),
    image: product.colourImage ?? product.image,
  };
}

function cardSale(product: ProductCard): SalePrice | null {
  return product.salePriceMinor !== undefined && product.salePercent !== undefined
    ? { salePriceMinor: product.salePriceMinor, salePercent: product.salePercent }
    : null;
}

/**
 * A colour's sale: its own when the card has one for it (CardColour.salePriceMinor), else the card's for a
 * colour at the product's price; a colour at its own price without one is not on sale.
 */
function colourSale(product: ProductCard, colour: CardColour): SalePrice | null {
  if (colour.salePriceMinor !== undefined && colour.salePercent !== undefined) {
    return { salePriceMinor: colour.salePriceMinor, salePercent: colour.salePercent };
  }
  return colour.priceMinor === undefined ? cardSale(product) : null;
}
