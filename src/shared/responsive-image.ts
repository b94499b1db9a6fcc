/**
 * Responsive image data the storefront gets for uploaded images (demo and URL media have none). Pure and
 * import-free: the server builds it, the client reads it back through `responsiveImage`.
 */
export type ResponsiveImage = {
  /** WebP candidates, "url 320w, url 640w, ...". */
  srcSet: string;
  /** AVIF candidates, present only when every WebP width has a smaller AVIF. */
  avifSrcSet?: string;
  /** Intrinsic size of the largest variant (the one `url` points to). */
  width: number;
  height: number;
};

export type StoredVariant = { url: string; width: number; format: 'webp' | 'avif'; storageKey: string };

function isVariant(v: unknown): v is StoredVariant {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.url === 'string' &&
    typeof o.width === 'number' &&
    (o.format === 'webp' || o.format === 'avif') &&
    typeof o.storageKey === 'string'
  );
}

/** The variants column, tolerant of a hand-edited row. */
export function parseVariants(text: string | null | undefined): StoredVariant[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(isVariant) : [];
  } catch {
    return [];
  }
}

const candidates = (list: StoredVariant[]) =>
  [...list]
    .sort((a, b) => a.width - b.width)
    .map((v) => `${v.url} ${v.width}w`)
    .join(', ');

/** Responsive fields for a media row, or an empty object when it has no usable variants. */
export function responsiveFields(
  variants: StoredVariant[],
  width: number | null,
  height: number | null,
): ResponsiveImage | Record<string, never> {
  const webp = variants.filter((v) => v.format === 'webp');
  if (webp.length === 0 || !width || !height) return {};
  const avif = variants.filter((v) => v.format === 'avif');
  const avifWidths = new Set(avif.map((v) => v.width));
  const avifComplete = avif.length > 0 && webp.every((v) => avifWidths.has(v.width));
  return {
    srcSet: candidates(webp),
    ...(avifComplete ? { avifSrcSet: candidates(avif) } : {}),
    width,
    height,
  };
}

/** Reads the responsive fields off an image object from the API, if the server sent them. */
export function responsiveImage(value: object | null | undefined): ResponsiveImage | null {
  if (!value) return null;
  const o = value as Record<string, unknown>;
  if (typeof o.srcSet !== 'string' || typeof o.width !== 'number' || typeof o.height !== 'number')
    return null;
  return {
    srcSet: o.srcSet,
    ...(typeof o.avifSrcSet === 'string' ? { avifSrcSet: o.avifSrcSet } : {}),
    width: o.width,
    height: o.height,
  };
}
