import type { Metadata } from 'sharp';

/** libvips costs about 30 MB of memory once loaded: only a process that handles an upload pays for it. */
const loadSharp = async () => (await import('sharp')).default;

/** Widths of the web variants; an image is never enlarged, so smaller ones get fewer (and their own width). */
export const VARIANT_WIDTHS = [320, 640, 1024, 1600] as const;
/** Decompression-bomb guard: a 48-megapixel phone photo fits, a 20000x20000 PNG does not. */
export const MAX_INPUT_PIXELS = 60_000_000;

export type EncodedVariant = {
  format: 'webp' | 'avif';
  width: number;
  height: number;
  data: Buffer;
};

export type ProcessedImage = {
  /** Size of the largest variant, after orientation. */
  width: number;
  height: number;
  /** Every WebP variant, and an AVIF next to it where the AVIF is smaller. */
  variants: EncodedVariant[];
};

export class ImageDecodeError extends Error {}

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);

export function targetWidths(sourceWidth: number): number[] {
  const widths: number[] = VARIANT_WIDTHS.filter((w) => w < sourceWidth);
  const largest = Math.min(sourceWidth, VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1] ?? sourceWidth);
  if (!widths.includes(largest)) widths.push(largest);
  return widths;
}

/**
 * Decodes an uploaded raster image (file path or bytes), applies its EXIF orientation and writes web
 * variants. sharp writes no metadata unless asked (no keepMetadata/withMetadata here), so EXIF, GPS, XMP
 * and ICC data never reach the output; colours are converted to sRGB. Animated GIF/WebP keep their first
 * frame.
 */
export async function processImage(input: string | Buffer): Promise<ProcessedImage> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(input, options).metadata();
  } catch {
    throw new ImageDecodeError('could not be read as an image');
  }
  if (!ACCEPTED_FORMATS.has(meta.format) || (meta.format === 'heif' && meta.compression !== 'av1')) {
    throw new ImageDecodeError('is not a supported image format');
  }
  const sourceWidth = meta.autoOrient?.width ?? meta.width;
  if (!sourceWidth || sourceWidth < 1) throw new ImageDecodeError('could not be read as an image');

  const variants: EncodedVariant[] = [];
  try {
    const oriented = sharp(input, options).rotate();
    for (const width of targetWidths(sourceWidth)) {
      const resized = oriented.clone().resize({ width, withoutEnlargement: true });
      const webp = await resized.clone().webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
      variants.push({ format: 'webp', width: webp.info.width, height: webp.info.height, data: webp.data });
      const avif = await resized
        .clone()
        .avif({ quality: 50, effort: 2 })
        .toBuffer({ resolveWithObject: true });
      if (avif.data.length < webp.data.length) {
        variants.push({ format: 'avif', width: avif.info.width, height: avif.info.height, data: avif.data });
      }
    }
  } catch {
    throw new ImageDecodeError('could not be read as an image');
  }
  const largest = variants
    .filter((v) => v.format === 'webp')
    .reduce<EncodedVariant | null>((a, b) => (a && a.width >= b.width ? a : b), null);
  if (!largest) throw new ImageDecodeError('could not be read as an image');
  return { width: largest.width, height: largest.height, variants };
}
