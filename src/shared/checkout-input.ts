import { z } from 'zod';
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from './checkout.js';
import type { FitKey } from './fit-keys.js';
import { ORDER_STATUSES } from './orders.js';
import { PAYMENT_METHODS, PAYMENT_STEPS } from './payment-names.js';

const centimetres = z.number().min(1).max(400);

/**
 * The fit finder's measurements a line is bought with (decision 0040): centimetres per body measurement the
 * product's chart compares. Only the finder's five keys, at least one; anything else is refused, not dropped.
 */
export const lineFitInput = z.strictObject({
  cm: z
    .strictObject({
      chest: centimetres.optional(),
      waist: centimetres.optional(),
      hip: centimetres.optional(),
      shoulder: centimetres.optional(),
      neck: centimetres.optional(),
    } satisfies Record<FitKey, z.ZodType>)
    .refine((cm) => Object.values(cm).some((v) => v !== undefined), 'At least one measurement'),
});
export type LineFit = z.infer<typeof lineFitInput>;

/** A cart line as the browser sends it: what and how many, never a price to trust. */
export const cartLineInput = z.object({
  productId: z.string().trim().min(1).max(100),
  /** The colour's name or its slug, for a product with colours (decision 0036). */
  colour: z.string().trim().min(1).max(100).nullish(),
  size: z.string().trim().min(1).max(20).nullable(),
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
  /** The unit price the shopper last saw, only to tell them it changed; never used to charge. */
  seenUnitPriceMinor: z.number().int().min(0).optional(),
  /** The shopper's measurements, when they used the fit finder on this product (decision 0040). */
  fit: lineFitInput.optional(),
});

export const cartInput = z.object({
  lines: z.array(cartLineInput).min(1).max(MAX_CART_LINES),
  /** A discount code the shopper typed (decision 0037); matched case-insensitively. */
  code: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => v || undefined),
  /** Only for codes limited per email address; Stripe's page collects the paying address later. */
  email: z
    .string()
    .trim()
    .max(254)
    .email('Enter a valid email address')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export const sessionIdInput = z.object({ sessionId: z.string().trim().min(1).max(300) });

export const orderListInput = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  /** Orders paid this way, and orders at this step of their method (decision 0038). */
  method: z.enum(PAYMENT_METHODS).optional(),
  step: z.enum(PAYMENT_STEPS).optional(),
  /** Orders with this discount code (decision 0037), matched as codes are: case and spaces aside. */
  code: z
    .string()
    .trim()
    .max(100, 'Code is too long (at most 100 characters)')
    .optional()
    .transform((v) => v || undefined),
  cursor: z.number().int().min(0).max(1_000_000).nullish(),
  limit: z.number().int().min(1).max(100).default(25),
});
export const orderIdInput = z.object({ id: z.string().trim().min(1).max(100) });

/** A two-letter country code, as Stripe's shipping countries are kept. */
export const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'Choose a country')
  .transform((c) => c.toUpperCase());

/** A required line of a shopper's details: trimmed, with the field's name in its messages. */
export const addressText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long (at most ${max} characters)`);

/** The shopper's email address, where the order's emails go. */
export const shopperEmail = z.string().trim().max(254).email('Enter a valid email address');

/** An address's optional second line; empty is none. */
export const addressLine2 = z
  .string()
  .trim()
  .max(200, 'Address line 2 is too long (at most 200 characters)')
  .optional()
  .transform((v) => v || null);

/** Demo payment mode's stand-in for what Stripe's page collects: who pays, and where the parcel goes. */
export const testPaymentInput = z.object({
  sessionId: z.string().trim().min(1).max(300),
  email: shopperEmail,
  name: addressText('Name', 120),
  address: z.object({
    line1: addressText('Address', 200),
    line2: addressLine2,
    city: addressText('City', 100),
    postalCode: addressText('Postal code', 20),
    country: countryCode,
  }),
});

/** The shopper's order page: the order id and the key from its link. */
export const orderPageInput = z.object({
  id: z.string().trim().min(1).max(100),
  token: z.string().trim().min(1).max(200),
});
