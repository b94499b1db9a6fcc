import { createHash } from 'node:crypto';
import yaml from 'js-yaml';
import { z } from 'zod';
import type { MediaType } from '../../db/database.js';
import { MAX_COLOUR_IMAGES } from '../../shared/colours.js';
import {
  cleanFileName,
  isValidMediaUrl,
  MAX_MEDIA_PER_PRODUCT,
  MEDIA_TYPES,
} from '../../shared/media-rules.js';
import {
  defaultSku,
  type ProductFields,
  productFields,
  productIdSchema,
  skuKey,
  skuTakenMessage,
} from '../../shared/product-input.js';
import { newProductId } from '../products/product-id.js';
import type { ColourRecord, ProductRecord } from '../products/products.repository.js';
import { namedProductFields } from './catalog-field-names.js';
import {
  DecimalText,
  DUMP_SCHEMA,
  decimalTextOf,
  EXACT_READ_SCHEMA,
  isPlainDecimal,
  plainNumbers,
  YamlNumber,
} from './catalog-yaml-numbers.js';

/**
 * The catalogue file: our YAML export format, and the reader for it and for plain files (a `products` list
 * without our metadata, the format older stores exported), which our format extends.
 * Reading is defensive: a hostile file gets a clear CatalogFileError before anything touches the database.
 */

export const CATALOG_FORMAT = 'storefront-catalog/1';
/** Largest catalogue file we read (upload, version file). */
export const MAX_CATALOG_BYTES = 20 * 1024 * 1024;
/** Most products in one file: a 20 MB file holds fewer real ones; more is refused before validation. */
export const MAX_CATALOG_PRODUCTS = 50_000;
/** Deepest nesting a catalogue needs is about 6 (products > item > sizeDetail > size > cell). */
export const MAX_YAML_DEPTH = 12;
const MAX_ISSUES_LISTED = 200;

export class CatalogFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogFileError';
  }
}

/** One media item as the file carries it. `upload` restores a file this store holds (media/uploads/ only). */
export type CatalogMedia = {
  url: string;
  fileName: string;
  type: MediaType;
  altText: string | null;
  order: number;
  upload?: {
    storageKey: string;
    contentType: string | null;
    byteSize: number | null;
    width: number | null;
    height: number | null;
    variants: { url: string; width: number; format: 'webp' | 'avif'; storageKey: string }[];
  };
};

/**
 * One colour as the file writes it. A colour with no details is its name alone, so a store without colour
 * details writes exactly the file it wrote before colours had any (`colors: [Mint, Ivory]`); a colour with
 * details is a mapping of its name and only the details it has:
 * `{ name: Teal, hex: '#1b7174', skuSuffix: -TL, price: 39.00, images: [...], sizeDetail: {...} }`.
 * `price` is in the product's currency, like the product's. `images` name the product's own photos by the
 * URL its media item (or its `images` entry) has in the same file: an import keeps every media URL as the
 * file writes it (an upload's URL is its storage key, restored with it), so the reference holds in any store
 * the file goes to. A hand-written file may name a photo by its media item's `fileName` instead; the reader
 * turns that into the URL (colourImagesOf).
 */
export type CatalogColour =
  | string
  | {
      name: string;
      hex?: string;
      skuSuffix?: string;
      price?: string;
      images?: string[];
      sizeDetail?: Record<string, Record<string, string>>;
    };

/**
 * One product as written to the file: every field of its row, prices as decimal major units, its colours
 * (CatalogColour), its media. Stock goes beside the fields in two keys, each only when there is some:
 * `stock: {M: 3}` counts a size for every colour without a count of its own (and a product without
 * colours), `colourStock: {Teal: {M: 1}, Maroon: {M: 4}}` counts a colour's sizes (by the colour's name);
 * a size counted by neither is not tracked (always available), as decision 0036 reads the stock.
 */
export type CatalogProduct = Omit<ProductRecord, 'colors'> & {
  colors: CatalogColour[];
  media: CatalogMedia[];
};

/** A colour as the file writes it: its name when it has no details, else the mapping of those it has. */
export function catalogColour(c: ColourRecord): CatalogColour {
  const details = {
    ...(c.hex ? { hex: c.hex } : {}),
    ...(c.skuSuffix ? { skuSuffix: c.skuSuffix } : {}),
    ...(c.price ? { price: c.price } : {}),
    ...(c.images.length > 0 ? { images: c.images } : {}),
    ...(c.sizeDetail && Object.keys(c.sizeDetail).length > 0 ? { sizeDetail: c.sizeDetail } : {}),
  };
  return Object.keys(details).length === 0 ? c.name : { name: c.name, ...details };
}

export type CatalogDocument = {
  metadata: {
    format: string;
    exported_at: string;
    total_products: number;
    store_version: string;
    checksum: string;
    label?: string;
    tags?: string[];
  };
  products: CatalogProduct[];
};

/** sha256 of the products as JSON: the same catalogue always has the same checksum. */
export function catalogChecksum(products: readonly CatalogProduct[]): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(products)).digest('hex')}`;
}

/** The file's text. A price goes out as a YAML number with its currency's decimals (89.99, 90.00, 1500). */
export function serializeCatalog(doc: CatalogDocument): string {
  const decimal = (price: string) => (isPlainDecimal(price) ? new DecimalText(price) : price);
  const products = doc.products.map((p) => ({
    ...p,
    price: decimal(p.price),
    // A colour's own price is money too: written as the product's is.
    colors: p.colors.map((c) =>
      typeof c === 'string' || c.price === undefined ? c : { ...c, price: decimal(c.price) },
    ),
  }));
  return yaml.dump(
    { ...doc, products },
    { schema: DUMP_SCHEMA, indent: 2, lineWidth: 120, noRefs: true, sortKeys: false },
  );
}

/** A file's metadata before its checksum is known. */
export type CatalogFileMetadata = Omit<CatalogDocument['metadata'], 'checksum'>;

/**
 * The YAML text of a catalogue file and its checksum: the one builder for the inline export and the dump
 * worker, so both write the same bytes.
 */
export function buildCatalogFile(
  metadata: CatalogFileMetadata,
  products: CatalogProduct[],
): { checksum: string; text: string } {
  const checksum = catalogChecksum(products);
  const { format, exported_at, total_products, store_version, ...rest } = metadata;
  const doc: CatalogDocument = {
    metadata: { format, exported_at, total_products, store_version, checksum, ...rest },
    products,
  };
  return { checksum, text: serializeCatalog(doc) };
}

// ---------------------------------------------------------------------------------------------- reading

/** js-yaml's parser state carries the current node's anchor, though its type declarations leave it out. */
function anchorOf(state: yaml.State): unknown {
  return (state as unknown as { anchor?: unknown }).anchor ?? null;
}

/**
 * Parses YAML with js-yaml's core schema (no custom tags, no merge keys), refusing anchors and deep nesting.
 * Numbers come back as YamlNumber (their text and their double): see catalog-yaml-numbers.ts.
 */
export function parseCatalogYaml(text: string): unknown {
  if (Buffer.byteLength(text, 'utf8') > MAX_CATALOG_BYTES) {
    throw new CatalogFileError(
      `The file is larger than ${MAX_CATALOG_BYTES / 1024 / 1024} MB. Split the catalogue into smaller files.`,
    );
  }
  let depth = 0;
  try {
    return yaml.load(text, {
      schema: EXACT_READ_SCHEMA,
      json: false,
      listener(event, state) {
        if (event === 'open') {
          depth += 1;
          if (depth > MAX_YAML_DEPTH) throw new CatalogFileError('The file is nested too deeply.');
          return;
        }
        depth -= 1;
        // An alias needs an anchor, so refusing anchors refuses every alias (and every alias bomb).
        if (anchorOf(state) !== null) {
          throw new CatalogFileError('YAML anchors and aliases are not allowed in a catalogue file.');
        }
      },
    });
  } catch (err) {
    if (err instanceof CatalogFileError) throw err;
    if (err instanceof RangeError) throw new CatalogFileError('The file is nested too deeply.');
    const reason = err instanceof yaml.YAMLException ? err.reason || err.message : String(err);
    throw new CatalogFileError(`The file is not valid YAML: ${reason}`);
  }
}

/** Refuses keys that mean trouble anywhere in the tree (prototype pollution, merge keys). */
function checkKeys(value: unknown, depth = 0): void {
  if (depth > MAX_YAML_DEPTH) throw new CatalogFileError('The file is nested too deeply.');
  if (Array.isArray(value)) {
    for (const v of value) checkKeys(v, depth + 1);
    return;
  }
  if (value && typeof value === 'object' && !(value instanceof YamlNumber)) {
    for (const key of Object.keys(value)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
        throw new CatalogFileError(`The key "${key}" is not allowed in a catalogue file.`);
      }
      if (key === '<<')
        throw new CatalogFileError('YAML merge keys (<<) are not allowed in a catalogue file.');
      checkKeys((value as Record<string, unknown>)[key], depth + 1);
    }
  }
}

const text = (max: number) => z.string().max(max);
const stringList = z.array(z.union([z.string().max(200), z.number()]).transform(String)).max(200);

/** A file's date and time (2024-01-31T10:00:00Z, 2024-01-31 10:00:00+00) as the store writes one. */
const fileTime = z
  .string()
  .max(40)
  .transform((v, ctx) => {
    const ms = Date.parse(v);
    if (!Number.isFinite(ms) || ms < 0 || ms >= Date.UTC(10000, 0, 1)) {
      ctx.addIssue({ code: 'custom', message: 'Enter a date and time like 2024-01-31T10:00:00Z' });
      return z.NEVER;
    }
    return new Date(ms).toISOString();
  });

/** A page order as a number or as decimal text ("2.5"), as the spec reads it. */
const pageOrderValue = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^\d{1,12}(\.\d+)?$/, 'Page order must be a number of 0 or more')
    .transform(Number),
]);

/** Measurements per size: numbers read as their text. */
const fileSizeDetail = z.record(
  z.string().max(100),
  z.record(z.string().max(100), z.union([z.string(), z.number()])),
);
const scalarText = (max: number) => z.union([z.string().max(max), z.number()]).transform(String);

/** A colour of either kind: a plain name (today's files), or a mapping with its details (CatalogColour). */
const fileColour = z.union([
  scalarText(200),
  z.object({
    name: scalarText(200),
    hex: scalarText(20).nullish(),
    skuSuffix: scalarText(100).nullish(),
    price: z.string().max(40).nullish(),
    images: z.array(text(4096)).max(MAX_COLOUR_IMAGES, `At most ${MAX_COLOUR_IMAGES} photos`).nullish(),
    sizeDetail: fileSizeDetail.nullish(),
  }),
]);

/**
 * One product of either format, in our format's spelling (catalog-field-names.ts), before the product form's
 * rules. `price` is exact decimal text by then.
 */
const fileProduct = z.object({
  id: z
    .union([z.string().max(100), z.number().int()])
    .transform(String)
    .optional(),
  title: text(1000).optional(),
  description: text(20000).nullish(),
  manufacturer: text(1000).nullish(),
  manufacturerUrl: text(4096).nullish(),
  sku: text(1000).nullish(),
  price: z.string().max(40).optional(),
  currency: text(10).nullish(),
  pageOrder: pageOrderValue.nullish(),
  sizes: stringList.nullish(),
  sizeDetail: fileSizeDetail.nullish(),
  colors: z.array(fileColour).max(200).nullish(),
  stock: z.record(z.string().max(100), z.number()).nullish(),
  colourStock: z.record(z.string().max(200), z.record(z.string().max(100), z.number())).nullish(),
  tags: stringList.nullish(),
  imageFolder: text(1000).nullish(),
  images: z.array(text(4096)).max(100).nullish(),
  stripePaymentLink: text(4096).nullish(),
  productLink: text(4096).nullish(),
  createdAt: fileTime.nullish(),
  updatedAt: fileTime.nullish(),
  media: z
    .array(
      z.object({
        url: text(4096),
        fileName: text(1000),
        type: z.enum(MEDIA_TYPES).default('image'),
        altText: text(1000).nullish(),
        order: z.number().int().min(0).max(1_000_000).optional(),
        upload: z
          .object({
            storageKey: text(500),
            contentType: text(200).nullish(),
            byteSize: z.number().int().min(0).nullish(),
            width: z.number().int().min(0).nullish(),
            height: z.number().int().min(0).nullish(),
            variants: z
              .array(
                z.object({
                  url: text(4096),
                  width: z.number().int().min(1),
                  format: z.enum(['webp', 'avif']),
                  storageKey: text(500),
                }),
              )
              .max(20)
              .default([]),
          })
          .optional(),
      }),
    )
    .max(MAX_MEDIA_PER_PRODUCT, `At most ${MAX_MEDIA_PER_PRODUCT} media items`)
    .nullish(),
});

/** A product ready to insert: its id, the form's validated fields, the legacy image list and its media. */
export type ImportItem = {
  position: number;
  id: string;
  fields: ProductFields;
  images: string[];
  media: CatalogMedia[];
  /** The file's created_at / updated_at, when it has them (the spec's table does): kept, as ISO text. */
  createdAt?: string;
  updatedAt?: string;
};

export type ImportIssue = { position: number; id: string | null; reason: string };

export type ParsedCatalog = {
  total: number;
  items: ImportItem[];
  invalid: ImportIssue[];
  invalidCount: number;
  /** Keys no product field has (a typo, another store's field): read past, and said so. */
  ignored: ImportIssue[];
  ignoredCount: number;
  /** `plain`: a file without our metadata block; missing fields take their defaults. */
  format: 'storefront' | 'plain';
};

const SAFE_UPLOAD_KEY = /^media\/uploads\/[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/;

function issueText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * A price as exact decimal text: a YAML number by the text the file wrote (so 90.00 and 12345678901234.57
 * stay what they are), a string as it is. Anything else is left for the schema to refuse.
 */
function exactPrice(price: unknown): unknown {
  if (price instanceof YamlNumber) return decimalTextOf(price.text) ?? price.text;
  return price;
}

/** The colours as read, each mapping's own price kept exact as the product's is. */
function exactColourPrices(colours: unknown): unknown {
  if (!Array.isArray(colours)) return colours;
  return colours.map((c) =>
    c && typeof c === 'object' && !(c instanceof YamlNumber) && 'price' in c
      ? { ...c, price: exactPrice((c as Record<string, unknown>).price) }
      : c,
  );
}

/** Cells of a size chart as text (the file may write a number). */
function textCells(cells: Record<string, Record<string, string | number>>) {
  return Object.fromEntries(
    Object.entries(cells).map(([size, row]) => [
      size,
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)])),
    ]),
  );
}

/**
 * A colour's photo references as the product keeps them: URLs of its own photos. A reference is a URL its
 * media (or its `images` list) has; failing that, the `fileName` of exactly one of its media items, which
 * is made that item's URL (a hand-written file can say `images: [teal-front.jpg]`). Anything else is not
 * one of this product's photos: the product is invalid, as a colour cannot show another product's photo.
 */
function colourImagesOf(
  refs: readonly string[],
  media: ReadonlyArray<{ url: string; fileName: string }>,
  images: readonly string[],
): { ok: true; images: string[] } | { ok: false; ref: string } {
  const urls = new Set([...media.map((m) => m.url.trim()), ...images]);
  const out: string[] = [];
  for (const raw of refs) {
    const ref = raw.trim();
    if (urls.has(ref)) {
      out.push(ref);
      continue;
    }
    const named = media.filter((m) => cleanFileName(m.fileName) === ref);
    if (named.length !== 1 || !named[0]) return { ok: false, ref };
    out.push(named[0].url.trim());
  }
  return { ok: true, images: out };
}

/**
 * One product's media with distinct orders. The store breaks ties by random row id, so two items sharing an
 * order came back swapped after an export and import; ties now keep their place in the file, renumbered
 * 0..n-1 (only when some order repeats, so a file's own distinct orders are kept as they are).
 */
function distinctOrders(media: CatalogMedia[]): CatalogMedia[] {
  if (new Set(media.map((m) => m.order)).size === media.length) return media;
  return media
    .map((m, position) => ({ m, position }))
    .sort((a, b) => a.m.order - b.m.order || a.position - b.position)
    .map(({ m }, order) => ({ ...m, order }));
}

/**
 * Reads a catalogue file of either format into validated items. Structural problems (not YAML, hostile
 * constructs, no products array, too many products) throw CatalogFileError; a bad product is listed in
 * `invalid` with its position (1-based), id and reason.
 */
export function readCatalog(content: string, newId: () => string): ParsedCatalog {
  const doc = parseCatalogYaml(content);
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new CatalogFileError('Invalid catalog format');
  const products = (doc as Record<string, unknown>).products;
  if (!Array.isArray(products)) throw new CatalogFileError('Invalid catalog format');
  if (products.length > MAX_CATALOG_PRODUCTS) {
    throw new CatalogFileError(
      `The file holds ${products.length} products; at most ${MAX_CATALOG_PRODUCTS} can be read at once. Split it into smaller files.`,
    );
  }
  checkKeys(doc);
  const metadata = (doc as Record<string, unknown>).metadata;
  const format =
    metadata &&
    typeof metadata === 'object' &&
    (metadata as Record<string, unknown>).format === CATALOG_FORMAT
      ? 'storefront'
      : 'plain';

  const items: ImportItem[] = [];
  const invalid: ImportIssue[] = [];
  let invalidCount = 0;
  const seen = new Set<string>();
  const reject = (position: number, id: string | null, reason: string) => {
    invalidCount += 1;
    if (invalid.length < MAX_ISSUES_LISTED) invalid.push({ position, id, reason });
  };
  const ignored: ImportIssue[] = [];
  let ignoredCount = 0;

  products.forEach((raw: unknown, index) => {
    const position = index + 1;
    const named = namedProductFields(raw);
    const rawId =
      named && typeof named.value.id === 'string'
        ? named.value.id.slice(0, 100)
        : named?.value.id instanceof YamlNumber
          ? named.value.id.text.slice(0, 100)
          : null;
    for (const key of named?.unknown ?? []) {
      ignoredCount += 1;
      if (ignored.length < MAX_ISSUES_LISTED)
        ignored.push({
          position,
          id: rawId,
          reason: `Ignored unknown field '${key}' on product ${position}`,
        });
    }
    if (named?.conflict) {
      reject(position, rawId, named.conflict);
      return;
    }
    const shape = fileProduct.safeParse(
      named
        ? plainNumbers({
            ...named.value,
            ...('price' in named.value ? { price: exactPrice(named.value.price) } : {}),
            ...('colors' in named.value ? { colors: exactColourPrices(named.value.colors) } : {}),
            // An id written as a number keeps its digits (007 stays 007).
            ...(named.value.id instanceof YamlNumber ? { id: named.value.id.text } : {}),
          })
        : plainNumbers(raw),
    );
    if (!shape.success) {
      reject(position, rawId, issueText(shape.error));
      return;
    }
    const p = shape.data;
    const idResult =
      p.id === undefined ? { success: true as const, data: newId() } : productIdSchema.safeParse(p.id);
    if (!idResult.success) {
      reject(position, p.id?.slice(0, 100) ?? null, 'Invalid product id');
      return;
    }
    const id = idResult.data;
    if (seen.has(id)) {
      reject(position, id, 'The same id appears earlier in the file');
      return;
    }
    const colours: Array<string | Record<string, unknown>> = [];
    for (const [i, c] of (p.colors ?? []).entries()) {
      if (typeof c === 'string') {
        colours.push(c);
        continue;
      }
      const images = colourImagesOf(c.images ?? [], p.media ?? [], p.images ?? []);
      if (!images.ok) {
        reject(
          position,
          id,
          `colors.${i}.images: "${images.ref.slice(0, 200)}" is none of this product's photos`,
        );
        return;
      }
      colours.push({
        name: c.name,
        hex: c.hex ?? null,
        skuSuffix: c.skuSuffix ?? null,
        price: c.price ?? null,
        images: images.images,
        sizeDetail: c.sizeDetail ? textCells(c.sizeDetail) : null,
      });
    }
    const fields = productFields.safeParse({
      title: p.title ?? '',
      description: p.description ?? '',
      manufacturer: p.manufacturer ?? '',
      manufacturerUrl: p.manufacturerUrl ?? '',
      // Defaults for a field a file leaves out: SKU- plus 8 characters of the id, page order 999, sizes
      // S..XL, no tags.
      sku: p.sku ?? defaultSku(id),
      price: p.price ?? '',
      currency: p.currency ?? 'usd',
      pageOrder: p.pageOrder ?? 999,
      sizes: p.sizes ?? [],
      tags: p.tags ?? [],
      // A plain name is a colour sharing the product's photos with untracked stock, as files before colours had.
      colors: colours,
      sizeDetail: textCells(p.sizeDetail ?? {}),
      stripePaymentLink: p.stripePaymentLink ?? '',
      productLink: p.productLink ?? '',
      imageFolder: p.imageFolder ?? '',
      // Files from before stock per size have none: every size untracked.
      stock: p.stock ?? {},
      colourStock: p.colourStock ?? {},
    });
    if (!fields.success) {
      reject(position, id, issueText(fields.error));
      return;
    }
    const images = p.images ?? [];
    if (!images.every((u) => isValidMediaUrl(u))) {
      reject(position, id, 'images: every image must be an http(s) URL or a /media/ path');
      return;
    }
    const media: CatalogMedia[] = [];
    for (const [i, m] of (p.media ?? []).entries()) {
      // Cleaned as an upload's name is: "\0a.jpg" passed a trim() and then failed the media table's CHECK.
      const fileName = cleanFileName(m.fileName);
      if (!isValidMediaUrl(m.url) || fileName === '') {
        reject(position, id, `media.${i}: needs a valid URL and a file name`);
        return;
      }
      const upload = m.upload;
      if (
        upload &&
        (!SAFE_UPLOAD_KEY.test(upload.storageKey) ||
          upload.variants.some((v) => !SAFE_UPLOAD_KEY.test(v.storageKey)))
      ) {
        reject(position, id, `media.${i}: stored files must be under media/uploads/`);
        return;
      }
      media.push({
        url: m.url.trim(),
        fileName,
        type: m.type,
        altText: m.altText?.trim() ? m.altText.trim().slice(0, 500) : null,
        order: m.order ?? i,
        ...(upload
          ? {
              upload: {
                storageKey: upload.storageKey,
                contentType: upload.contentType ?? null,
                byteSize: upload.byteSize ?? null,
                width: upload.width ?? null,
                height: upload.height ?? null,
                variants: upload.variants,
              },
            }
          : {}),
      });
    }
    seen.add(id);
    // Our own files keep a sizeless product sizeless (shawls, dupattas); the form's default applies otherwise.
    const sizes = format === 'storefront' && p.sizes?.length === 0 ? [] : fields.data.sizes;
    items.push({
      position,
      id,
      fields: { ...fields.data, sizes },
      images,
      media: distinctOrders(media),
      ...(p.createdAt ? { createdAt: p.createdAt } : {}),
      ...(p.updatedAt ? { updatedAt: p.updatedAt } : {}),
    });
  });
  return { total: products.length, items, invalid, invalidCount, ignored, ignoredCount, format };
}

/**
 * Splits items that are to be inserted together into those that may be, and an issue for each that would
 * give a product a SKU (as the unique index compares, decision 0012) already held: by a product of the live
 * catalogue (`live`, by skuKey), or by an earlier item that is kept. Items are taken in file order.
 */
export function refuseHeldSkus(
  items: readonly ImportItem[],
  live: ReadonlyMap<string, { title: string }> = new Map(),
): { items: ImportItem[]; invalid: ImportIssue[] } {
  const held = new Map<string, { title: string; position: number | null }>();
  for (const [key, owner] of live) held.set(key, { title: owner.title, position: null });
  const kept: ImportItem[] = [];
  const invalid: ImportIssue[] = [];
  for (const item of items) {
    const key = skuKey(item.fields.sku);
    const owner = held.get(key);
    if (owner) {
      const where = owner.position === null ? '' : ` (#${owner.position}, earlier in the file)`;
      invalid.push({
        position: item.position,
        id: item.id,
        reason: `${skuTakenMessage(item.fields.sku, owner.title)}${where}`,
      });
      continue;
    }
    held.set(key, { title: item.fields.title, position: item.position });
    kept.push(item);
  }
  return { items: kept, invalid };
}

/** Issues of two checks as one list: in file order, at most as many as are listed. */
export function mergeIssues(a: readonly ImportIssue[], b: readonly ImportIssue[]): ImportIssue[] {
  return [...a, ...b].sort((x, y) => x.position - y.position).slice(0, MAX_ISSUES_LISTED);
}

/**
 * Reads a catalogue whose products all go in together, replacing the live ones (overwrite, publish): a SKU
 * repeated within it makes the later product invalid.
 */
export function readWholeCatalog(content: string): ParsedCatalog {
  const parsed = readCatalog(content, newProductId);
  const unique = refuseHeldSkus(parsed.items);
  return {
    ...parsed,
    items: unique.items,
    invalid: mergeIssues(parsed.invalid, unique.invalid),
    invalidCount: parsed.invalidCount + unique.invalid.length,
  };
}

/** How a file is read: `whole` for a catalogue that replaces the live one (overwrite, publish), `add` otherwise. */
export type CatalogReading = 'whole' | 'add';

/** The inline reading the service does (or the parse worker, for a big file): plain data, structured-clone safe. */
export function readCatalogFile(content: string, reading: CatalogReading): ParsedCatalog {
  return reading === 'whole' ? readWholeCatalog(content) : readCatalog(content, newProductId);
}
