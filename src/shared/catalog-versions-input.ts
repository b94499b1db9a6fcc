import { z } from 'zod';

/**
 * What the admin sends to save, export and import catalogue versions (the catalog-versions module and the
 * catalogue file upload). The shopper's side of the catalogue takes storefront-input.ts.
 */

/** Export dialog input: an optional label and comma-separated tags (trimmed, empties dropped). */
export const exportCatalogInput = z.object({
  label: z.string().trim().max(200).optional(),
  tags: z
    .array(z.string().trim().max(50))
    .max(30)
    .default([])
    .transform((tags) => [...new Set(tags.filter((t) => t !== ''))]),
});

export const catalogVersionIdInput = z.object({ id: z.string().regex(/^cv_[A-Za-z0-9_-]{1,40}$/) });

/** "spring, eid ,, sale" -> ["spring", "eid", "sale"]. */
export function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

export const IMPORT_MODES = ['add', 'overwrite'] as const;
export type ImportModeName = (typeof IMPORT_MODES)[number];
