import { z } from 'zod';
import { orderIdInput } from './checkout-input.js';

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} is too long (at most ${max} characters)`)
    .nullish()
    .transform((v) => v || null);

/** A tracking link a shopper can open: http(s) only, never javascript: or data:. */
const trackingUrl = z
  .string()
  .trim()
  .max(500, 'Tracking link is too long (at most 500 characters)')
  .nullish()
  .transform((v) => v || null)
  .refine((v) => v === null || /^https?:\/\/[^\s]+$/i.test(v), 'Tracking link must start with https://');

export const shipOrderInput = orderIdInput.extend({
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
  trackingUrl,
});

export const cancelOrderInput = orderIdInput.extend({ reason: optionalText(500, 'Reason') });

/** A refund gives back lines (their unit prices times the quantities) or an amount, never both. */
export const refundOrderInput = orderIdInput
  .extend({
    reason: optionalText(500, 'Reason'),
    amountMinor: z
      .number()
      .int()
      .positive('Enter an amount above zero')
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
    lines: z
      .array(z.object({ lineId: z.number().int().positive(), quantity: z.number().int().min(1).max(10) }))
      .max(50)
      .optional(),
    /**
     * A manual refund of a cash-on-delivery or transfer order (decision 0038): how the money went back
     * (required for those orders, the server says so) and a note.
     */
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
  })
  .superRefine((input, ctx) => {
    const byLines = (input.lines?.length ?? 0) > 0;
    if (byLines === (input.amountMinor !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Refund either lines or an amount', path: ['amountMinor'] });
    }
    const ids = new Set(input.lines?.map((l) => l.lineId));
    if (ids.size !== (input.lines?.length ?? 0)) {
      ctx.addIssue({ code: 'custom', message: 'Each line once', path: ['lines'] });
    }
  });

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-30');

/** The accounting export's range: whole days, in UTC, at most a few years. */
export const orderExportInput = z
  .object({ from: isoDate, to: isoDate })
  .refine((r) => r.from <= r.to, { message: 'The start must not be after the end', path: ['to'] });
