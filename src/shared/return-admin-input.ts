import { z } from 'zod';
import { RETURN_STATUSES } from './returns.js';

const returnId = z.string().trim().min(1, 'Return id is required').max(100, 'Return id is too long');

export const returnIdInput = z.object({ id: returnId });

export const returnListInput = z.object({
  status: z.enum(RETURN_STATUSES).optional(),
  cursor: z.number().int().min(0).max(1_000_000).nullish(),
  limit: z.number().int().min(1).max(100).default(25),
});

export const declineReturnInput = z.object({
  id: returnId,
  reason: z
    .string()
    .trim()
    .min(1, 'Say why the return is declined')
    .max(500, 'Reason is too long (at most 500 characters)'),
});

/** The parcel is in: its condition in words, and which units of which lines go back on the shelf. */
export const receiveReturnInput = z
  .object({
    id: returnId,
    condition: z.string().trim().max(1000, 'Condition is too long (at most 1000 characters)').default(''),
    restock: z
      .array(
        z.object({
          lineId: z.number().int().positive(),
          quantity: z.number().int().min(0).max(100),
        }),
      )
      .max(50, 'At most 50 lines')
      .default([]),
  })
  .superRefine((input, ctx) => {
    const ids = new Set(input.restock.map((l) => l.lineId));
    if (ids.size !== input.restock.length) {
      ctx.addIssue({ code: 'custom', message: 'Each line once', path: ['restock'] });
    }
  });

/** How money went back by hand, and the owner's note of it (as admin.orders.refund asks for manual orders). */
const paidVia = z.string().trim().min(1, 'Say how the money went back').max(100, 'At most 100 characters');
const note = z
  .string()
  .trim()
  .max(1000, 'At most 1000 characters')
  .optional()
  .transform((v) => v || null);

/**
 * The replacement leaves with its tracking. An exchange whose price difference goes back to the shopper is
 * refunded as it closes: paidVia for a cash-on-delivery or transfer order's (decision 0039).
 */
export const closeExchangeInput = z.object({
  id: returnId,
  paidVia: paidVia.optional(),
  note,
  carrier: z
    .string()
    .trim()
    .min(1, 'Carrier is required')
    .max(100, 'Carrier is too long (at most 100 characters)'),
  trackingNumber: z
    .string()
    .trim()
    .min(1, 'Tracking number is required')
    .max(100, 'Tracking number is too long (at most 100 characters)'),
});

/**
 * A refund closes the return through the order's refund; a cash-on-delivery or transfer order's is paid back
 * by hand, so the owner says how (as admin.orders.refund asks for those orders).
 */
export const closeRefundInput = z.object({
  id: returnId,
  paidVia: z
    .string()
    .trim()
    .min(1, 'Say how the money went back')
    .max(100, 'At most 100 characters')
    .optional(),
  note: z
    .string()
    .trim()
    .max(1000, 'At most 1000 characters')
    .optional()
    .transform((v) => v || null),
});

/** An exchange's price difference paid another way than the order page's card payment (cash, a transfer). */
export const recordDifferencePaidInput = z.object({
  id: returnId,
  paidVia: z.string().trim().min(1, 'Say how it was paid').max(100, 'At most 100 characters'),
  note,
});

/** A closed exchange's price difference given back again after the provider refused it. */
export const refundDifferenceInput = z.object({ id: returnId, paidVia: paidVia.optional(), note });

export const reasonsByProductInput = z.object({
  productId: z.string().trim().min(1, 'Product id is required').max(100, 'Product id is too long'),
});
