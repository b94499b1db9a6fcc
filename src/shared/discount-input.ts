import { z } from 'zod';
import type { DiscountScope, DiscountValue } from './discounts.js';
import { isKnownCurrency, parseMajorToMinor } from './money.js';
import { isLocalDateTime } from './zoned-time.js';

/**
 * A sale or a code as the owner writes it (decision 0037), checked the same by the admin's form and the
 * server. Amounts are typed in major units of the chosen currency ("5.00"); dates are wall-clock times in
 * the shop's time zone ("2026-12-01T00:00"), which the server turns into UTC instants.
 */

export const MAX_SCOPE_PRODUCTS = 200;
export const MAX_SCOPE_TAGS = 50;
export const MAX_SCOPE_COLOURS = 50;

/** What the form says about several discounts on one item: the rule of decision 0037. */
export const DISCOUNT_STACKING_RULE =
  'One sale per item: the best for the shopper, never stacked. A code applies on top of sale prices.';

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .max(12)
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max), {
      message: `${label}: a whole number from ${min} to ${max}`,
    });

const listOf = (max: number, what: string) =>
  z
    .array(z.string().trim().min(1, `Empty ${what}`).max(100, `At most 100 characters per ${what}`))
    .max(max, `At most ${max} ${what}s`);

export const discountInput = z
  .object({
    kind: z.enum(['sale', 'code'], { message: 'Choose a sale or a code' }),
    name: z.string().trim().min(1, 'Name it').max(100, 'At most 100 characters'),
    /** '' for a sale. */
    code: z.string().trim().max(40, 'At most 40 characters'),
    valueType: z.enum(['percent', 'fixed', 'free_shipping'], { message: 'Choose what it takes off' }),
    percent: z.string().trim().max(12),
    amount: z.string().trim().max(20),
    /** The currency of a fixed amount and of the minimum order. */
    currency: z.string().trim().toLowerCase().max(3).refine(isKnownCurrency, 'Choose a currency'),
    target: z.enum(['order', 'items'], { message: 'Choose the order or the items' }),
    scopeKind: z.enum(['all', 'tags', 'products'], { message: 'Choose what it covers' }),
    tags: listOf(MAX_SCOPE_TAGS, 'tag'),
    products: listOf(MAX_SCOPE_PRODUCTS, 'product'),
    colours: listOf(MAX_SCOPE_COLOURS, 'colour'),
    startsAt: z.string().trim().max(16),
    /** '' for no end. */
    endsAt: z.string().trim().max(16),
    /** '' for none. */
    minOrder: z.string().trim().max(20),
    maxUses: wholeNumber('Total uses', 1, 1_000_000),
    maxUsesPerEmail: wholeNumber('Uses per email', 1, 1_000_000),
  })
  .superRefine((d, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (d.kind === 'code') {
      if (d.code.length < 3) issue('code', 'A code has 3 to 40 characters');
      else if (!/^[A-Za-z0-9_-]+$/.test(d.code)) issue('code', 'Letters, digits, - and _ only');
    }
    if (d.kind === 'sale' && d.valueType === 'free_shipping') {
      issue('valueType', 'Free shipping is for codes; a sale takes a percentage or an amount off');
    }
    const maxPercent = d.kind === 'sale' ? 90 : 100;
    if (d.valueType === 'percent') {
      const p = Number(d.percent);
      if (!/^\d+$/.test(d.percent) || p < 1 || p > maxPercent) {
        issue('percent', `A whole percentage from 1 to ${maxPercent}`);
      }
    }
    const currencyKnown = isKnownCurrency(d.currency);
    if (d.valueType === 'fixed' && currencyKnown) {
      const minor = parseMajorToMinor(d.amount, d.currency);
      if (minor === null || minor < 1) issue('amount', 'Enter an amount more than 0, like 5 or 9.99');
    }
    if (d.minOrder !== '' && currencyKnown && parseMajorToMinor(d.minOrder, d.currency) === null) {
      issue('minOrder', 'Enter an amount like 100 or 99.50, or leave it empty');
    }
    if (d.scopeKind === 'tags' && d.tags.length === 0) issue('tags', 'Add at least one tag');
    if (d.scopeKind === 'products' && d.products.length === 0)
      issue('products', 'Choose at least one product');
    if (!isLocalDateTime(d.startsAt)) issue('startsAt', 'Enter a start date and time');
    if (d.endsAt !== '') {
      if (!isLocalDateTime(d.endsAt)) issue('endsAt', 'Enter an end date and time, or leave it empty');
      else if (isLocalDateTime(d.startsAt) && d.endsAt <= d.startsAt)
        issue('endsAt', 'The end comes after the start');
    }
  })
  .transform((d) => {
    const value: DiscountValue =
      d.valueType === 'percent'
        ? { type: 'percent', percent: Number(d.percent) }
        : d.valueType === 'fixed'
          ? { type: 'fixed', amountMinor: parseMajorToMinor(d.amount, d.currency) ?? 0, currency: d.currency }
          : { type: 'free_shipping' };
    const scope: DiscountScope = {};
    if (d.scopeKind === 'tags') scope.tags = [...new Set(d.tags)];
    if (d.scopeKind === 'products') scope.products = [...new Set(d.products)];
    if (d.colours.length > 0) scope.colours = [...new Set(d.colours)];
    const count = (v: string) => (v === '' ? null : Number(v));
    const isCode = d.kind === 'code';
    return {
      kind: d.kind,
      name: d.name,
      code: isCode ? d.code : null,
      value,
      // A sale is always of the items it covers.
      target: isCode ? d.target : ('items' as const),
      scope,
      startsLocal: d.startsAt,
      endsLocal: d.endsAt === '' ? null : d.endsAt,
      minOrderMinor: isCode && d.minOrder !== '' ? parseMajorToMinor(d.minOrder, d.currency) : null,
      minOrderCurrency: isCode && d.minOrder !== '' ? d.currency : null,
      maxUses: isCode ? count(d.maxUses) : null,
      maxUsesPerEmail: isCode ? count(d.maxUsesPerEmail) : null,
    };
  });

export type DiscountFormValues = z.input<typeof discountInput>;
export type DiscountFields = z.output<typeof discountInput>;

export const discountIdInput = z.object({ id: z.string().trim().min(1).max(100) });
export const createDiscountInput = z.object({ fields: discountInput });
export const updateDiscountInput = z.object({ id: z.string().trim().min(1).max(100), fields: discountInput });

/** An empty form: a sale of 10 % on everything, starting where the owner says. */
export function emptyDiscountForm(currency: string): DiscountFormValues {
  return {
    kind: 'sale',
    name: '',
    code: '',
    valueType: 'percent',
    percent: '10',
    amount: '',
    currency,
    target: 'order',
    scopeKind: 'all',
    tags: [],
    products: [],
    colours: [],
    startsAt: '',
    endsAt: '',
    minOrder: '',
    maxUses: '',
    maxUsesPerEmail: '',
  };
}
