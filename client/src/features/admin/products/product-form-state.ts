import { tidyColourName } from '@shared/colours';
import { type ProductFields, type ProductFieldsInput, productFields } from '@shared/product-input';
import { DEFAULT_SIZES } from '@shared/sizes';
import type { FormCheck } from '../../../lib/use-zod-form';

/** A colour as the form edits it: every box a string, and its own row of the stock grid. */
export type ColourDraft = {
  /** Stays while the owner renames or moves the colour: the React key and the grid row follow it. */
  key: string;
  name: string;
  hex: string;
  skuSuffix: string;
  /** Decimal text in the product's currency; empty: the product's price. */
  price: string;
  /** Photo URLs of the product assigned to this colour (none: the colour shows every shared photo). */
  images: string[];
  /** "This colour is cut differently": off keeps the product's chart (the default). */
  ownChart: boolean;
  sizeDetail: Record<string, Record<string, string>>;
  /** Units per size counted for this colour alone; a size absent falls back to the all-colours count. */
  stock: Record<string, number>;
};

/** The form's values: the product's fields, with colours (and their stock) as drafts. */
export type FormValues = Omit<Required<ProductFieldsInput>, 'colors' | 'colourStock'> & {
  colors: ColourDraft[];
};

/** The colour as the product reads it back (ColourRecord on the server). */
export type SavedColour = {
  name: string;
  hex: string | null;
  skuSuffix: string | null;
  price: string;
  images: string[];
  sizeDetail: Record<string, Record<string, string>> | null;
};

let lastKey = 0;
/** A key no other draft in this page has. */
export function newColourKey(): string {
  lastKey += 1;
  return `colour-${lastKey}`;
}

export function emptyColour(): ColourDraft {
  return {
    key: newColourKey(),
    name: '',
    hex: '',
    skuSuffix: '',
    price: '',
    images: [],
    ownChart: false,
    sizeDetail: {},
    stock: {},
  };
}

export function colourDrafts(
  colours: readonly SavedColour[],
  colourStock: Record<string, Record<string, number>> | undefined,
): ColourDraft[] {
  return colours.map((c) => ({
    key: newColourKey(),
    name: c.name,
    hex: c.hex ?? '',
    skuSuffix: c.skuSuffix ?? '',
    price: c.price,
    images: [...c.images],
    ownChart: c.sizeDetail !== null,
    sizeDetail: c.sizeDetail ?? {},
    stock: { ...(colourStock?.[c.name] ?? {}) },
  }));
}

/** A blank colour is read under this name while the rest is checked, so the others keep their positions. */
const blankName = (i: number) => `unnamed colour ${i + 1}`;

/**
 * What the server is sent. `photos` (the product's photo URLs, when known) drops assignments of photos
 * removed since: the server would refuse them, and they show nowhere anyway.
 */
export function toFieldsInput(values: FormValues, photos?: ReadonlySet<string>): ProductFieldsInput {
  const { colors, ...rest } = values;
  const named = colors.map((c, i) => ({ ...c, name: tidyColourName(c.name) || blankName(i) }));
  return {
    ...rest,
    colors: named.map((c) => ({
      name: c.name,
      hex: c.hex,
      skuSuffix: c.skuSuffix,
      price: c.price,
      images: photos ? c.images.filter((url) => photos.has(url)) : c.images,
      sizeDetail: c.ownChart ? c.sizeDetail : null,
    })),
    colourStock: Object.fromEntries(
      named.filter((c) => Object.keys(c.stock).length > 0).map((c) => [c.name, c.stock]),
    ),
  };
}

/**
 * The form's check: the shared product rules over what would be sent, and a blank colour name said where
 * it is (the shared rules drop blank colours silently, as a catalogue file's blank entries are).
 */
export const productFormCheck: FormCheck<ProductFields> = {
  safeParse(values: unknown) {
    // useZodForm hands back the values it was given: this form's own.
    const form = values as FormValues;
    const blanks = form.colors.flatMap((c, i) =>
      tidyColourName(c.name) === ''
        ? [{ path: ['colors', i, 'name'], message: 'Name this colour, or remove it' }]
        : [],
    );
    const result = productFields.safeParse(toFieldsInput(form));
    if (blanks.length === 0) return result;
    return { success: false, error: { issues: [...blanks, ...(result.success ? [] : result.error.issues)] } };
  },
};

/** The sizes a product is sold in: its own, or the default ones when it has none (as the server saves it). */
export function sellingSizes(sizes: readonly string[]): string[] {
  return sizes.length > 0 ? [...sizes] : [...DEFAULT_SIZES];
}

/** The stock entries of the sizes the product still has. */
export function stockForSizes(
  stock: Record<string, number>,
  sizes: readonly string[],
): Record<string, number> {
  const kept = new Set(sellingSizes(sizes));
  return Object.fromEntries(Object.entries(stock).filter(([size]) => kept.has(size)));
}

/** The key a grid cell's error is found under: the shared rules' path (colourStock.Teal.M). */
export function colourStockPath(name: string, size: string): string {
  return `colourStock.${tidyColourName(name)}.${size}`;
}

/**
 * The count a box holds: an emptied (or unreadable) box stops counting the size; a fraction or a negative
 * stays for the rules to name.
 */
export function withCount(stock: Record<string, number>, size: string, text: string): Record<string, number> {
  const { [size]: _dropped, ...rest } = stock;
  return text.trim() === '' || !Number.isFinite(Number(text)) ? rest : { ...rest, [size]: Number(text) };
}

/** Moves item `from` to `to` (both within the list). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  if (item !== undefined) out.splice(to, 0, item);
  return out;
}
