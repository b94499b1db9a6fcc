import type { DbOrTx } from '../../db/database.js';
import { colourOptionsOf, parseJsonArray } from '../../db/json-columns.js';
import type { ColourOption } from '../../shared/colours.js';

/** Where a refused colour photo is named, as a path in the product form (colors.2.images). */
export type ColourPhotoIssue = { path: Array<string | number>; message: string };

/**
 * The photos a colour may name: the product's own media and the image URLs of its images list (products
 * imported from a plain catalogue file have only those). A product not yet created has none.
 */
export async function productPhotoUrls(db: DbOrTx, productId: string): Promise<Set<string>> {
  const media = await db.selectFrom('media').select('url').where('product_id', '=', productId).execute();
  return new Set([...media.map((m) => m.url), ...(await listedImagesOf(db, productId))]);
}

/** The product's images list (its photos as a catalogue file named them), apart from its media. */
export async function listedImagesOf(db: DbOrTx, productId: string): Promise<string[]> {
  const row = await db.selectFrom('products').select('images').where('id', '=', productId).executeTakeFirst();
  return row ? parseJsonArray(row.images) : [];
}

/**
 * Every colour photo must be one of this product's: a URL of another product's photo (or of none) would show
 * a stranger's picture for the colour, so it is refused, with the colour it was given to.
 */
export function colourPhotoIssues(
  colours: readonly Pick<ColourOption, 'name' | 'images'>[],
  photos: ReadonlySet<string>,
): ColourPhotoIssue[] {
  const issues: ColourPhotoIssue[] = [];
  for (const [i, colour] of colours.entries()) {
    const foreign = colour.images.filter((url) => !photos.has(url));
    if (foreign.length === 0) continue;
    issues.push({
      path: ['colors', i, 'images'],
      message:
        photos.size === 0
          ? `${colour.name}: add photos to the product first, then assign them to a colour`
          : `${colour.name}: ${foreign.length === 1 ? 'a photo that is' : `${foreign.length} photos that are`} not among this product's photos (${foreign[0]})`,
    });
  }
  return issues;
}

/**
 * A photo of the product removed (`to` null) or pointed at another URL: the colours that claimed it follow,
 * so no colour keeps a photo the product no longer has (a cart line would show it broken). The product's
 * updated_at is left alone, like any media change: an edit form open meanwhile still saves.
 */
export async function followPhotoInColours(
  db: DbOrTx,
  productId: string,
  from: string,
  to: string | null,
): Promise<void> {
  const row = await db
    .selectFrom('products')
    .select('colour_options')
    .where('id', '=', productId)
    .executeTakeFirst();
  if (!row) return;
  const colours = colourOptionsOf(row.colour_options);
  if (!colours.some((c) => c.images.includes(from))) return;
  const followed = colours.map((c) => ({
    ...c,
    images: [...new Set(c.images.flatMap((url) => (url !== from ? [url] : to === null ? [] : [to])))],
  }));
  await db
    .updateTable('products')
    .set({ colour_options: JSON.stringify(followed) })
    .where('id', '=', productId)
    .execute();
}
