import { z } from 'zod';
import {
  type ColourOption,
  colourSlug,
  MAX_COLOUR_IMAGES,
  MAX_COLOUR_NAME,
  MAX_COLOURS,
  MAX_SKU_SUFFIX,
  normaliseHex,
  tidyColourName,
} from './colours.js';
import { currencyExponent, isKnownCurrency, parseMajorToMinor } from './money.js';
import { DEFAULT_SIZES } from './sizes.js';

/**
 * The product form's rules, shared by the browser (inline messages) and the server (the authority).
 * Prices are typed as decimal text in the currency's major unit and stored as exact minor units.
 */

/**
 * Text the store keeps and gives back unchanged: no NUL (SQLite's length() stops at it, so a title of "\0"
 * passed these rules and then failed the table's CHECK as a 500) and no unpaired UTF-16 surrogate (a text
 * column stores it as U+FFFD, and a UTF-8 catalogue file cannot carry it, so the product read back or
 * exported and imported would differ from the one saved).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const UNSTORABLE = /\u0000|\p{Cs}/u;
export const UNSTORABLE_TEXT_MESSAGE = 'Remove the invisible or broken characters from this text';
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'Enter a full http(s) URL')
  .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
  .transform((v) => (v === '' ? null : v));

/** Trimmed, non-empty, unique (case-insensitive) chips, as the chip inputs commit them. */
const chips = (max: number, maxLength: number) =>
  z
    .array(z.string())
    .max(200)
    .transform((values) => {
      const seen = new Set<string>();
      const out: string[] = [];
      for (const raw of values) {
        const v = raw.trim();
        if (v && !seen.has(v.toLowerCase())) {
          seen.add(v.toLowerCase());
          out.push(v);
        }
      }
      return out;
    })
    .refine((v) => v.length <= max, `At most ${max} entries`)
    .refine((v) => v.every((x) => x.length <= maxLength), `Each entry at most ${maxLength} characters`)
    .refine((v) => v.every(isStorableText), UNSTORABLE_TEXT_MESSAGE);

const sizeDetailInput = z.record(
  z.string().trim().min(1).max(20).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  z.record(
    z.string().trim().min(1).max(40).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
    z.string().trim().max(40).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  ),
);

/** Only measurements for sizes the product has, and only filled cells. */
function filledSizeDetail(detail: Record<string, Record<string, string>>) {
  return Object.fromEntries(
    Object.entries(detail).flatMap(([size, row]) => {
      const cells = Object.entries(row).filter(([, v]) => v !== '');
      return cells.length > 0 ? [[size, Object.fromEntries(cells)]] : [];
    }),
  );
}

/** A colour as the form and a catalogue file give it: a plain name (today's files) or the whole variant. */
const colourInput = z.union([
  z.string().transform((name) => ({ name, plain: true as const })),
  z.object({
    name: z.string(),
    hex: z.string().max(20, 'A swatch is a colour like #1f7a6d').nullish(),
    skuSuffix: z
      .string()
      .max(MAX_SKU_SUFFIX, `A SKU suffix has at most ${MAX_SKU_SUFFIX} characters`)
      .nullish(),
    /** Decimal text in the product's currency, like the product's price; empty: the product's price. */
    price: z.string().max(20).nullish(),
    images: z.array(z.string().trim().min(1).max(2048)).max(MAX_COLOUR_IMAGES).nullish(),
    sizeDetail: sizeDetailInput.nullish(),
  }),
]);

const colourList = z
  .array(colourInput)
  // Counted again once repeats and blanks are dropped: a plain list of today's files held at most 20
  // colours after those went (chips(20, 50)), however many entries it had.
  .max(200, `At most ${MAX_COLOURS} colours`)
  .transform((values) => {
    // A plain list (today's files, the old form) drops a repeated name as it always did; a variant never.
    const plainSeen = new Set<string>();
    return values
      .map((c) => ({ ...c, name: tidyColourName(c.name) }))
      .filter((c) => {
        if (c.name === '') return false;
        if (!('plain' in c)) return true;
        const slug = colourSlug(c.name);
        if (plainSeen.has(slug)) return false;
        plainSeen.add(slug);
        return true;
      });
  })
  .superRefine((colours, ctx) => {
    if (colours.length > MAX_COLOURS)
      ctx.addIssue({ code: 'custom', path: [], message: `At most ${MAX_COLOURS} colours` });
    const seen = new Map<string, string>();
    for (const [i, c] of colours.entries()) {
      if (c.name.length > MAX_COLOUR_NAME)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `Each colour at most ${MAX_COLOUR_NAME} characters`,
        });
      if (!isStorableText(c.name))
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: UNSTORABLE_TEXT_MESSAGE });
      const slug = colourSlug(c.name);
      const before = seen.get(slug);
      if (slug === '')
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${c.name}" is not a colour name` });
      else if (before !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `"${c.name}" is the same colour as "${before}"`,
        });
      else seen.set(slug, c.name);
      if ('hex' in c && c.hex && normaliseHex(c.hex) === null)
        ctx.addIssue({ code: 'custom', path: [i, 'hex'], message: 'A swatch is a colour like #1f7a6d' });
      if ('skuSuffix' in c && c.skuSuffix && !isStorableText(c.skuSuffix))
        ctx.addIssue({ code: 'custom', path: [i, 'skuSuffix'], message: UNSTORABLE_TEXT_MESSAGE });
    }
  });

/** Page order bounds: a decimal sort key (2.5 goes between 2 and 3), as the spec parses it. */
export const MAX_PAGE_ORDER = 1_000_000_000;
export const PAGE_ORDER_DECIMALS = 4;

/** True when `value` has at most PAGE_ORDER_DECIMALS decimals (2.5, 0.125; not 0.1 + 0.2). */
export function hasPageOrderDecimals(value: number): boolean {
  return Number.isFinite(value) && Number(value.toFixed(PAGE_ORDER_DECIMALS)) === value;
}

/** Why a price text is refused: too many decimals for its currency is said as such. */
export function priceMessage(price: string, currency: string): string {
  const fraction = /^\s*\d+\.(\d+?)0*\s*$/.exec(price)?.[1] ?? '';
  const exponent = currencyExponent(currency);
  if (fraction.length > exponent) {
    const code = currency.toUpperCase();
    return exponent === 0
      ? `${code} prices are whole numbers: no decimals`
      : `${code} prices have at most ${exponent} decimals`;
  }
  return 'Enter a price of 0 or more, like 49.99';
}

export const productFields = z
  .object({
    title: z
      .string()
      .trim()
      .min(1, 'Title is required')
      .max(200)
      .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
    description: z
      .string()
      .trim()
      .min(1, 'Description is required')
      .max(5000)
      .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
    manufacturer: z.string().trim().max(200).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).default(''),
    manufacturerUrl: httpUrl.default(''),
    sku: z.string().trim().min(1, 'SKU is required').max(100).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
    price: z.string().trim().min(1, 'Price is required').max(20),
    currency: z
      .string()
      .trim()
      .toLowerCase()
      .refine((c) => isKnownCurrency(c), 'Choose a currency'),
    pageOrder: z
      .number()
      .min(0, 'Page order cannot be negative')
      .max(MAX_PAGE_ORDER, `Page order is at most ${MAX_PAGE_ORDER.toLocaleString('en-US')}`)
      .refine(hasPageOrderDecimals, `At most ${PAGE_ORDER_DECIMALS} decimal places`)
      .default(999),
    sizes: chips(20, 20),
    tags: chips(30, 50),
    colors: colourList.default([]),
    sizeDetail: sizeDetailInput.default({}),
    /** Units on hand per size; a size that is absent is not tracked (always available). */
    stock: z
      .record(
        z.string().trim().min(1).max(20),
        z.number().int('Whole numbers only').min(0, 'Stock cannot be negative').max(1_000_000),
      )
      .default({}),
    /** Units on hand per colour (by name) and size, for colours with a count of their own. */
    colourStock: z
      .record(
        z.string().max(200),
        z.record(
          z.string().trim().min(1).max(20),
          z.number().int('Whole numbers only').min(0, 'Stock cannot be negative').max(1_000_000),
        ),
      )
      .default({}),
    stripePaymentLink: httpUrl.default(''),
    productLink: httpUrl.default(''),
    imageFolder: z.string().trim().max(300).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).default(''),
  })
  .superRefine((p, ctx) => {
    if (isKnownCurrency(p.currency) && parseMajorToMinor(p.price, p.currency) === null) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: priceMessage(p.price, p.currency) });
    }
    const sizes = p.sizes.length > 0 ? p.sizes : DEFAULT_SIZES;
    for (const size of Object.keys(p.stock)) {
      if (!(sizes as readonly string[]).includes(size))
        ctx.addIssue({
          code: 'custom',
          path: ['stock', size],
          message: `Stock for ${size}, a size this product does not have`,
        });
    }
    const colourSlugs = new Set(p.colors.map((c) => colourSlug(c.name)));
    // One count per colour: "Teal" and "teal" both given would keep one of them silently.
    const stockedAs = new Map<string, string>();
    for (const [colour, counts] of Object.entries(p.colourStock)) {
      if (!colourSlugs.has(colourSlug(colour))) {
        ctx.addIssue({
          code: 'custom',
          path: ['colourStock', colour],
          message: `Stock for ${colour}, a colour this product does not have`,
        });
        continue;
      }
      const before = stockedAs.get(colourSlug(colour));
      if (before !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['colourStock', colour],
          message: `Stock for ${colour} is given twice (also as ${before})`,
        });
      stockedAs.set(colourSlug(colour), colour);
      for (const size of Object.keys(counts))
        if (!(sizes as readonly string[]).includes(size))
          ctx.addIssue({
            code: 'custom',
            path: ['colourStock', colour, size],
            message: `Stock for ${colour} ${size}, a size this product does not have`,
          });
    }
    for (const [i, c] of p.colors.entries()) {
      const price = 'price' in c ? c.price?.trim() : '';
      if (price && isKnownCurrency(p.currency) && parseMajorToMinor(price, p.currency) === null)
        ctx.addIssue({
          code: 'custom',
          path: ['colors', i, 'price'],
          message: priceMessage(price, p.currency),
        });
    }
  })
  .transform((p) => ({
    ...p,
    // A product with no sizes is sold in the default sizes.
    sizes: p.sizes.length > 0 ? p.sizes : [...DEFAULT_SIZES],
    priceMinor: parseMajorToMinor(p.price, p.currency) ?? 0,
    sizeDetail: filledSizeDetail(p.sizeDetail),
    colors: p.colors.map((c): ColourOption => {
      const price = 'price' in c ? c.price?.trim() : '';
      const sizeDetail = 'sizeDetail' in c && c.sizeDetail ? filledSizeDetail(c.sizeDetail) : null;
      return {
        name: c.name,
        hex: 'hex' in c && c.hex ? normaliseHex(c.hex) : null,
        skuSuffix: 'skuSuffix' in c && c.skuSuffix?.trim() ? c.skuSuffix.trim() : null,
        priceMinor: price ? parseMajorToMinor(price, p.currency) : null,
        images: 'images' in c && c.images ? [...new Set(c.images)] : [],
        sizeDetail: sizeDetail && Object.keys(sizeDetail).length > 0 ? sizeDetail : null,
      };
    }),
    // Keyed by the colour's own spelling, whatever spelling the form or the file used.
    colourStock: Object.fromEntries(
      Object.entries(p.colourStock).flatMap(([colour, counts]) => {
        const own = p.colors.find((c) => colourSlug(c.name) === colourSlug(colour));
        return own ? [[own.name, counts]] : [];
      }),
    ),
  }));

/**
 * The SKU a new product gets when none is typed: "SKU-" and the first 8 characters of its id's random
 * part. Not of the whole id: every generated id starts with "plink_", so its first 8 characters hold only
 * two random letters, and SKUs, which must be unique, would collide within a few dozen products.
 */
export function defaultSku(id: string): string {
  return `SKU-${id.replace(/^plink_/, '').slice(0, 8)}`;
}

/**
 * The key two SKUs are compared by: A-Z folded to a-z, nothing else. That is SQLite's NOCASE collation, which
 * the unique index on products.sku uses (decision 0012), so the check before a write and the index agree.
 */
export function skuKey(sku: string): string {
  return sku.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Why a SKU is refused: the product (by title) that already has it, when it is known. */
export function skuTakenMessage(sku: string, ownerTitle?: string): string {
  return `SKU "${sku}" is already used by ${ownerTitle === undefined ? 'another product' : `"${ownerTitle}"`}`;
}

export type ProductFieldsInput = z.input<typeof productFields>;
export type ProductFields = z.output<typeof productFields>;

export const productIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, 'Invalid product id');

export const createProductInput = z.object({ id: productIdSchema.optional(), fields: productFields });
export const updateProductInput = z.object({
  id: productIdSchema,
  /** The updated_at the form was loaded with: a save over someone else's newer change is refused. */
  expectedUpdatedAt: z.string().max(40),
  fields: productFields,
});

export const ADMIN_PRODUCT_SORTS = [
  'id',
  'sku',
  'title',
  'price',
  'currency',
  'page_order',
  'created_at',
] as const;
export const adminProductListInput = z.object({
  q: z.string().max(200).optional(),
  sort: z.enum(ADMIN_PRODUCT_SORTS).default('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  cursor: z.number().int().min(0).max(1_000_000).nullish(),
  limit: z.number().int().min(1).max(100).default(50),
});
