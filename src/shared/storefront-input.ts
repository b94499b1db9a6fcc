import { z } from 'zod';
import { CATALOGUE_SORTS, MAX_OFFSET, SEARCH_MAX_LENGTH } from './catalogue.js';

/**
 * What shoppers send the storefront's catalogue procedures: a filter or a search, a product's id or slug, a
 * back-in-stock wish. Catalogue versions (the admin's export and import) take catalog-versions-input.ts.
 */

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
  /** Only products with a size that can be bought now (with sizes chosen: one of those sizes). */
  inStock: z.boolean().default(false),
  /** Only products a sale runs for now (decision 0037): the product's own, or one of its colours'. */
  onSale: z.boolean().optional(),
});
export type CatalogueFilter = z.infer<typeof catalogueFilterInput>;
export type CatalogueFilterInput = z.input<typeof catalogueFilterInput>;

export const catalogueSearchInput = catalogueFilterInput.extend({
  sort: z.enum(CATALOGUE_SORTS).optional(),
  /** How many products to skip (named cursor so tRPC's infinite queries can page with it). */
  cursor: z.number().int().min(0).max(MAX_OFFSET).nullish(),
  limit: z.number().int().min(1).max(48).default(24),
});
export type CatalogueSearchInput = z.input<typeof catalogueSearchInput>;

export const productIdInput = z.object({ id: z.string().trim().min(1).max(100) });
export const productSlugInput = z.object({ slug: z.string().trim().min(1).max(300) });

/** "Email me when it is back" for a sold-out size. */
export const stockAlertInput = z.object({
  productId: z.string().trim().min(1).max(100),
  /** The colour's name or slug, for a product with colours: a wish is per colour and size (decision 0036). */
  colour: z.string().trim().min(1).max(100).nullish(),
  size: z.string().trim().min(1).max(20),
  email: z.string().trim().max(254).email('Enter a valid email address'),
});
