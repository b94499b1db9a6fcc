import { z } from 'zod';
import {
  cleanFileName,
  isValidMediaUrl,
  MAX_ALT_TEXT_LENGTH,
  MAX_FILE_NAME_LENGTH,
  MAX_MEDIA_PER_PRODUCT,
  MAX_URL_LENGTH,
  MEDIA_MESSAGES,
  MEDIA_TYPES,
} from './media-rules.js';

const id = z.string().trim().min(1).max(100);

export const mediaUrl = z
  .string({ error: MEDIA_MESSAGES.invalidUrl })
  .trim()
  .max(MAX_URL_LENGTH, MEDIA_MESSAGES.invalidUrl)
  .refine(isValidMediaUrl, MEDIA_MESSAGES.invalidUrl);

export const mediaFileName = z
  .string({ error: MEDIA_MESSAGES.missingFileName })
  .transform(cleanFileName)
  .refine((v) => v.length > 0, MEDIA_MESSAGES.missingFileName)
  .refine((v) => v.length <= MAX_FILE_NAME_LENGTH, `At most ${MAX_FILE_NAME_LENGTH} characters`);

/** Optional alt text: blank becomes null. */
export const mediaAltText = z
  .string()
  .max(MAX_ALT_TEXT_LENGTH, `At most ${MAX_ALT_TEXT_LENGTH} characters`)
  .nullish()
  .transform((v) => {
    const t = v?.trim() ?? '';
    return t === '' ? null : t;
  });

export const mediaListInput = z.object({ productId: id });

export const mediaAddUrlInput = z.object({
  productId: id,
  url: mediaUrl,
  fileName: mediaFileName,
  mediaType: z.enum(MEDIA_TYPES).default('image'),
  altText: mediaAltText,
});

export const mediaUpdateInput = z.object({
  id,
  url: mediaUrl.optional(),
  fileName: mediaFileName.optional(),
  altText: z
    .string()
    .max(MAX_ALT_TEXT_LENGTH, `At most ${MAX_ALT_TEXT_LENGTH} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim())),
});

export const mediaRemoveInput = z.object({ id });

export const mediaReorderInput = z.object({
  productId: id,
  ids: z.array(id).max(MAX_MEDIA_PER_PRODUCT),
});
