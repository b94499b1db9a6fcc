import { z } from 'zod';

export const PRODUCT_PAGE_SIZE_MAX = 48;

export const catalogueListInput = z.object({
  limit: z.number().int().min(1).max(PRODUCT_PAGE_SIZE_MAX).default(24),
  /** Opaque cursor from the previous page's nextCursor. */
  cursor: z.string().max(200).nullish(),
});
export type CatalogueListInput = z.input<typeof catalogueListInput>;

export const productIdInput = z.object({ id: z.string().trim().min(1).max(100) });

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

export type CataloguePage = { items: ProductCard[]; nextCursor: string | null };
