/** Catalogue constants and the shapes the client receives. Zod schemas live in storefront-input.ts so the
 * storefront bundle does not carry Zod. */
import type { ColourSwatch } from './colours.js';

export const CATALOGUE_SORTS = ['featured', 'newest', 'price-asc', 'price-desc', 'relevance'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
export const FACET_KINDS = ['manufacturer', 'size', 'color', 'tag'] as const;
export type FacetKindName = (typeof FACET_KINDS)[number];
export const SEARCH_MAX_LENGTH = 200;
export const MAX_OFFSET = 10_000;

export type FacetOption = { value: string; count: number };
export type CatalogueFacets = Record<FacetKindName, FacetOption[]> & {
  price: { min: number; max: number } | null;
  /** How many of the products found are on sale now (the On sale filter's count; decision 0037). */
  onSale: number;
};

/**
 * Counts are exact up to this many; beyond it the store says "1,000+" (decision 0024): counting every match
 * of a broad search read the whole index on each request, and nobody reads a thousand cards.
 */
export const COUNT_CAP = 1_000;

/** `total` is exact when `totalCapped` is false, otherwise at least COUNT_CAP. */
export type SearchPage = {
  items: ProductCard[];
  total: number;
  totalCapped: boolean;
  nextOffset: number | null;
};

/** "24 products", "1 product", "1,000+ products". */
export function countLabel(total: number, capped: boolean, one: string, many: string): string {
  const n = `${total.toLocaleString('en-US')}${capped ? '+' : ''}`;
  return `${n} ${total === 1 && !capped ? one : many}`;
}

export type RelatedProducts = {
  heading: 'Related Products' | 'Similar Products' | 'You May Also Like';
  items: ProductCard[];
};

export type ImageRef = { url: string; alt: string };

/** A colour on a card (compact swatches): its name, swatch colour and first photo, as a listing shows it. */
export type CardColour = ColourSwatch & {
  /** The colour's own price, left out when it sells at the product's. */
  priceMinor?: number;
  /**
   * Sizes not buyable now in this colour (its own count, else all colours', is sold out), left out when
   * there are none: what the card's quick Add to cart, which buys one colour, cannot buy.
   */
  soldOutSizes?: string[];
  /**
   * The colour's price at the sale running for it (decision 0037), with its badge's percentage: there only
   * when it is not what the card's own sale fields say of it (a sale of chosen colours, or the colour's own
   * price on sale). A colour with neither sells at the card's sale price, if any.
   */
  salePriceMinor?: number;
  salePercent?: number;
};

/** The price charged and the badge of an item on sale (decision 0037; src/shared/discounts.ts bestSale). */
export type SalePrice = { salePriceMinor: number; salePercent: number };

export type ProductCard = {
  id: string;
  title: string;
  description: string;
  manufacturer: string;
  priceMinor: number;
  currency: string;
  /**
   * The price charged while a sale of the whole product runs (the best, never stacked; decision 0037), with
   * the badge's percentage ("−20%"). Left out when none runs: the card's JSON stays as it was.
   */
  salePriceMinor?: number;
  salePercent?: number;
  sizes: string[];
  image: ImageRef | null;
  hasPaymentLink: boolean;
  /** Every size is tracked and none is left: the card says "Sold out". */
  soldOut: boolean;
  /**
   * Sizes shown but not buyable now (tracked, none left beyond open checkouts): the card's size list marks
   * them sold out. Left out when every size can be bought.
   */
  soldOutSizes?: string[];
  /** The product's colours, in its order; left out for a product without colours (its JSON is as before). */
  colours?: CardColour[];
  /**
   * The colour this card shows, by name: a card found through a colour filter shows that colour's first
   * photo, price and sold-out sizes (its entry in `colours` has them), links to it and buys it. Left out on
   * a plain card (whose quick Add to cart buys the first colour with a size left).
   */
  colour?: string;
  /** That colour's first photo, when it has photos of its own: shown instead of `image`. */
  colourImage?: ImageRef;
};

export type ProductMedia = {
  id: string;
  url: string;
  fileName: string;
  mediaType: 'image' | 'pdf' | 'txt' | 'video';
  altText: string | null;
  displayOrder: number;
};

export type SizeDetail = Record<string, Record<string, string>>;

/**
 * One colour of a product as its page shows it (decision 0036): the swatch, the photos shown first for it
 * (only photos the product has), its own price and chart when it has them, and the sizes sold out in it by
 * the colour rule (its own count, else the all-colours count, else untracked).
 */
export type ProductColour = {
  name: string;
  /** The colour in a link: `?colour=sea-green`. */
  slug: string;
  hex: string | null;
  skuSuffix: string | null;
  /** Its own price in minor units; null: the product's price. */
  priceMinor: number | null;
  /** The price it is charged at the sale running for it (its own or the product's), null when none runs. */
  sale: (SalePrice & { endsAt: string | null }) | null;
  images: string[];
  /** Its own measurements; null: the product's chart. */
  sizeDetail: SizeDetail | null;
  soldOutSizes: string[];
};

/** A card's colour fields are the listing's; the product page has every colour whole (`colours`). */
export type ProductDetail = Omit<ProductCard, 'colours' | 'colour' | 'salePriceMinor' | 'salePercent'> & {
  /** As on a card, but always there (empty when every size can be bought). */
  soldOutSizes: string[];
  sku: string;
  manufacturerUrl: string | null;
  sizeDetail: SizeDetail;
  colors: string[];
  /** The colour variants in the owner's order; empty for a product without colours. */
  colours: ProductColour[];
  /** The sale running for the product as a whole (no colour chosen), and when it ends; null when none. */
  sale: (SalePrice & { endsAt: string | null }) | null;
  tags: string[];
  productLink: string | null;
  stripePaymentLink: string | null;
  media: ProductMedia[];
  createdAt: string;
  updatedAt: string;
};
