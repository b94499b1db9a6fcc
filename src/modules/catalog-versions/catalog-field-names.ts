import { YamlNumber } from './catalog-yaml-numbers.js';

/**
 * The field names a catalogue file may use, in either spelling. The original store's product table names
 * its columns in snake_case (image_folder, stripe_payment_link, page_order, color...) and its export format in
 * camelCase (imageFolder, stripePaymentLink, pageOrder); our format is camelCase with `colors`. A reader that
 * knew only some snake_case names dropped image_folder, stripe_payment_link and product_link without a word,
 * so every name is read here, and a key that is none of them is reported, never dropped silently.
 */

/** A product's fields as our format names them: the spec's table and export format, and our additions. */
export const PRODUCT_KEYS = [
  'id',
  'title',
  'description',
  'manufacturer',
  'manufacturerUrl',
  'sku',
  'price',
  'currency',
  'pageOrder',
  'sizes',
  'sizeDetail',
  'colors',
  'tags',
  'imageFolder',
  'images',
  'stripePaymentLink',
  'productLink',
  'stock',
  'colourStock',
  'media',
  'createdAt',
  'updatedAt',
] as const;

/** A colour written as a mapping (a colour with details); a colour with none is its name alone. */
const COLOUR_KEYS = ['name', 'hex', 'skuSuffix', 'price', 'images', 'sizeDetail'] as const;
const MEDIA_KEYS = ['url', 'fileName', 'type', 'altText', 'order', 'upload'] as const;
const UPLOAD_KEYS = ['storageKey', 'contentType', 'byteSize', 'width', 'height', 'variants'] as const;
const VARIANT_KEYS = ['url', 'width', 'format', 'storageKey'] as const;

/**
 * The spec's table calls the colour list `color`; our format, `colors`. Stock per colour is `colourStock`,
 * and American spelling (colorStock, color_stock) is read as it.
 */
const EXTRA_SPELLINGS: Readonly<Record<string, string>> = {
  color: 'colors',
  colorStock: 'colourStock',
  color_stock: 'colourStock',
};

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function spellings(keys: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const key of keys) {
    map.set(key, key);
    map.set(snakeCase(key), key);
  }
  for (const [alias, key] of Object.entries(EXTRA_SPELLINGS)) if (keys.includes(key)) map.set(alias, key);
  return map;
}

const PRODUCT_SPELLINGS = spellings(PRODUCT_KEYS);
const COLOUR_SPELLINGS = spellings(COLOUR_KEYS);
const MEDIA_SPELLINGS = spellings(MEDIA_KEYS);
const UPLOAD_SPELLINGS = spellings(UPLOAD_KEYS);
const VARIANT_SPELLINGS = spellings(VARIANT_KEYS);

/** Two values read from a file are the same (numbers by value, so `2` and `2.0` agree). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof YamlNumber || b instanceof YamlNumber) {
    const x = a instanceof YamlNumber ? a.value : a;
    const y = b instanceof YamlNumber ? b.value : b;
    return x === y;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
    );
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every(
        (k) =>
          Object.hasOwn(b, k) &&
          sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      )
    );
  }
  return a === b;
}

export type NamedFields = {
  /** The object with every key in our format's spelling (values as read). */
  value: Record<string, unknown>;
  /** Keys that are no field, with their path inside the product ("colour_x", "media.0.caption"). */
  unknown: string[];
  /** The first key given in two spellings with different values, as a sentence; null when none is. */
  conflict: string | null;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof YamlNumber);
}

function renamed(raw: Record<string, unknown>, names: Map<string, string>, path: string): NamedFields {
  const value: Record<string, unknown> = {};
  const from = new Map<string, string>();
  const unknown: string[] = [];
  let conflict: string | null = null;
  for (const [key, v] of Object.entries(raw)) {
    const name = names.get(key);
    if (name === undefined) {
      unknown.push(`${path}${key}`);
      continue;
    }
    const earlier = from.get(name);
    if (earlier !== undefined) {
      if (!sameValue(value[name], v) && conflict === null)
        conflict = `'${path}${earlier}' and '${path}${key}' are the same field with different values: keep one`;
      continue;
    }
    from.set(name, key);
    value[name] = v;
  }
  return { value, unknown, conflict };
}

/** Renames each object of a list (media, variants) by `names`, collecting what each finds. */
function renamedList(
  list: unknown,
  names: Map<string, string>,
  path: string,
  inner?: (item: Record<string, unknown>, itemPath: string) => NamedFields,
): Omit<NamedFields, 'value'> & { list: unknown } {
  if (!Array.isArray(list)) return { list, unknown: [], conflict: null };
  const unknown: string[] = [];
  let conflict: string | null = null;
  const out = list.map((item, i) => {
    if (!isRecord(item)) return item;
    const itemPath = `${path}.${i}.`;
    const named = renamed(item, names, itemPath);
    unknown.push(...named.unknown);
    conflict ??= named.conflict;
    if (!inner) return named.value;
    const deeper = inner(named.value, itemPath);
    unknown.push(...deeper.unknown);
    conflict ??= deeper.conflict;
    return deeper.value;
  });
  return { list: out, unknown, conflict };
}

function namedUpload(media: Record<string, unknown>, mediaPath: string): NamedFields {
  if (!isRecord(media.upload)) return { value: media, unknown: [], conflict: null };
  const path = `${mediaPath}upload.`;
  const upload = renamed(media.upload, UPLOAD_SPELLINGS, path);
  const variants = renamedList(upload.value.variants, VARIANT_SPELLINGS, `${path}variants`);
  return {
    value: {
      ...media,
      upload: { ...upload.value, ...(variants.list === undefined ? {} : { variants: variants.list }) },
    },
    unknown: [...upload.unknown, ...variants.unknown],
    conflict: upload.conflict ?? variants.conflict,
  };
}

/**
 * One product of a file with its keys in our format's spelling (its colours, media, uploads and variants too).
 * A key in neither spelling is listed in `unknown`; both spellings of one field with different values is
 * a `conflict` (the product cannot be read: which one is meant?). Null for anything that is not a mapping.
 */
export function namedProductFields(raw: unknown): NamedFields | null {
  if (!isRecord(raw)) return null;
  const product = renamed(raw, PRODUCT_SPELLINGS, '');
  const media = renamedList(product.value.media, MEDIA_SPELLINGS, 'media', namedUpload);
  // A colour given as a plain name is left as it is (renamedList passes anything but a mapping through).
  const colours = renamedList(product.value.colors, COLOUR_SPELLINGS, 'colors');
  return {
    value: {
      ...product.value,
      ...(product.value.colors === undefined ? {} : { colors: colours.list }),
      ...(product.value.media === undefined ? {} : { media: media.list }),
    },
    unknown: [...product.unknown, ...colours.unknown, ...media.unknown],
    conflict: product.conflict ?? colours.conflict ?? media.conflict,
  };
}
