import type { QuotedLine } from '@shared/checkout';
import { colourSlug, variantLabel } from '@shared/colours';
import { sizeKey } from '@shared/sizes';
import type { CartLine } from './cart-store';

/**
 * The quote's line for a cart line. The quote names a colour and size in the product's own spelling
 * ("Teal", "M") whatever spelling or slug the cart kept ("teal", "m"), so they compare as the server merges
 * lines: colours by slug, sizes by key.
 */
export function quotedLineOf(
  quoted: readonly QuotedLine[] | undefined,
  line: CartLine,
): QuotedLine | undefined {
  const colour = line.colour ?? null;
  return quoted?.find(
    (q) =>
      q.productId === line.productId &&
      (q.colour === null || colour === null
        ? q.colour === colour
        : colourSlug(q.colour) === colourSlug(colour)) &&
      (q.size === null || line.size === null ? q.size === line.size : sizeKey(q.size) === sizeKey(line.size)),
  );
}

/**
 * "Teal / M" for a line with a colour (in the product's spelling once the quote has it), "M" or "" for one
 * without: what the cart, the checkout and their buttons' names call the line.
 */
export function lineVariant(line: CartLine, quoted: QuotedLine | undefined): string {
  return variantLabel(quoted?.colour ?? line.colour, quoted?.size ?? line.size);
}

/** "Lawn Kurta (Teal / M)", "Lawn Kurta (M)", "Silk Dupatta": a line's whole name, for labels. */
export function lineName(line: CartLine, quoted: QuotedLine | undefined): string {
  const variant = lineVariant(line, quoted);
  const title = quoted?.title ?? 'item';
  return variant ? `${title} (${variant})` : title;
}

/** The React key of a cart line: product, colour and size (a line without a colour keeps today's key). */
export function lineKey(line: CartLine): string {
  return line.colour
    ? `${line.productId}-${colourSlug(line.colour)}-${line.size}`
    : `${line.productId}-${line.size}`;
}
