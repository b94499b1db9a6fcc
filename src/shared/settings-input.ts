import { z } from 'zod';
import { isKnownCurrency, parseMajorToMinor } from './money.js';
import { isTimeZone } from './zoned-time.js';

const optionalUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'Enter a full http(s) URL')
  .transform((v) => (v === '' ? null : v));

/** Site paths of our own media (/media/...) or full http(s) URLs. */
const imageUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v) || /^\/media\/[A-Za-z0-9/._-]+$/.test(v),
    'Enter an http(s) URL or a /media/ path',
  )
  .transform((v) => (v === '' ? null : v));

/** The store's contact address for the order emails (shown in them, and their Reply-To); '' for none. */
const optionalEmail = z
  .string()
  .trim()
  .max(254, 'At most 254 characters')
  .refine((v) => v === '' || z.email().safeParse(v).success, 'Enter an email address like help@example.com')
  .transform((v) => (v === '' ? null : v));

export const shippingOptionInput = z
  .object({
    label: z.string().trim().min(1, 'Name the option').max(100),
    amount: z.string().trim().max(20),
    currency: z.string().trim().toLowerCase().refine(isKnownCurrency, 'Choose a currency'),
    minDays: z.number().int().min(0).max(365).nullable(),
    maxDays: z.number().int().min(0).max(365).nullable(),
  })
  .superRefine((o, ctx) => {
    if (isKnownCurrency(o.currency) && parseMajorToMinor(o.amount, o.currency) === null) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Enter an amount like 0 or 9.99' });
    }
    if (o.minDays !== null && o.maxDays !== null && o.minDays > o.maxDays) {
      ctx.addIssue({ code: 'custom', path: ['maxDays'], message: 'At least the minimum' });
    }
  })
  .transform((o) => ({
    label: o.label,
    amountMinor: parseMajorToMinor(o.amount, o.currency) ?? 0,
    currency: o.currency,
    minDays: o.minDays,
    maxDays: o.maxDays,
  }));

export const settingsInput = z.object({
  storeName: z.string().trim().min(1, 'Store name is required').max(100),
  tagline: z.string().trim().max(300),
  aboutText: z.string().trim().max(5000),
  disclaimer: z.string().trim().max(2000),
  credits: z
    .array(z.object({ role: z.string().trim().min(1).max(100), name: z.string().trim().min(1).max(100) }))
    .max(20),
  specialOrderUrl: optionalUrl,
  contactUrl: optionalUrl,
  /** Optional so that a client of an older form keeps the stored address (left out = unchanged). */
  contactEmail: optionalEmail.optional(),
  bannerTitle: z
    .string()
    .trim()
    .max(200)
    .transform((v) => (v === '' ? null : v)),
  bannerDescription: z
    .string()
    .trim()
    .max(500)
    .transform((v) => (v === '' ? null : v)),
  bannerImageUrl: imageUrl,
  bannerActive: z.boolean(),
  shippingCountries: z
    .array(
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, 'Two-letter country codes, like US or PK'),
    )
    .max(60)
    .transform((v) => [...new Set(v)]),
  shippingOptions: z.array(shippingOptionInput).max(5, 'At most 5 shipping options'),
  /** Sizes with this many or fewer left are listed on the dashboard; left out = unchanged. */
  lowStockThreshold: z
    .number()
    .int('Whole numbers only')
    .min(0, 'Cannot be negative')
    .max(1000, 'At most 1000')
    .optional(),
  /** The IANA zone the owner sets sales and codes in (decision 0037); left out = unchanged. */
  timeZone: z
    .string()
    .trim()
    .max(64)
    .refine(isTimeZone, 'Choose a time zone such as Asia/Karachi or UTC')
    .optional(),
  /** Let shoppers enter Stripe Dashboard promotion codes on Stripe's page (never with a store code). */
  stripePromotionCodes: z.boolean().optional(),
});
export type SettingsInput = z.input<typeof settingsInput>;
