import { z } from 'zod';

export const CATALOGUE_SORTS = ['featured', 'newest', 'price-asc', 'price-desc', 'relevance'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
export const FACET_KINDS = ['manufacturer', 'size', 'color', 'tag'] as const;
export type FacetKindName = (typeof FACET_KINDS)[number];
export const SEARCH_MAX_LENGTH = 200;
export const MAX_OFFSET = 10_000;

const filterValues = z.array(z.string().max(100)).max(50).default([]);
const minorAmount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** What narrows the catalogue: free text plus facet groups (OR inside a group, AND across groups). */
export const catalogueFilterInput = z.object({
  q: z.string().max(SEARCH_MAX_LENGTH).optional(),
  manufacturers: filterValues,
  sizes: filterValues,
  colors: filterValues,
  tags: filterValues,
  /** In minor units of the store's currency. */
  priceMin: minorAmount.optional(),
  priceMax: minorAmount.optional(),
});
export type CatalogueFilter = z.infer<typeof catalogueFilterInput>;
export type CatalogueFilterInput = z.input<typeof catalogueFilterInput>;

export const catalogueSearchInput = catalogueFilterInput.extend({
  sort: z.enum(CATALOGUE_SORTS).optional(),
  offset: z.number().int().min(0).max(MAX_OFFSET).default(0),
  limit: z.number().int().min(1).max(48).default(24),
});
export type CatalogueSearchInput = z.input<typeof catalogueSearchInput>;

export type FacetOption = { value: string; count: number };
export type CatalogueFacets = Record<FacetKindName, FacetOption[]> & {
  price: { min: number; max: number } | null;
};

export type SearchPage = { items: ProductCard[]; total: number; nextOffset: number | null };

export type RelatedProducts = {
  heading: 'Related Products' | 'Similar Products' | 'You May Also Like';
  items: ProductCard[];
};

export const productIdInput = z.object({ id: z.string().trim().min(1).max(100) });
export const productSlugInput = z.object({ slug: z.string().trim().min(1).max(300) });

export type ImageRef = { url: string; alt: string };

export type ProductCard = {
  id: string;
  title: string;
  description: string;
  manufacturer: string;
  priceMinor: number;
  currency: string;
  sizes: string[];
  image: ImageRef | null;
  hasPaymentLink: boolean;
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

export type ProductDetail = ProductCard & {
  sku: string;
  manufacturerUrl: string | null;
  sizeDetail: SizeDetail;
  colors: string[];
  tags: string[];
  productLink: string | null;
  stripePaymentLink: string | null;
  media: ProductMedia[];
  createdAt: string;
  updatedAt: string;
};

