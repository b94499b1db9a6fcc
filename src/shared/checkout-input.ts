import { z } from 'zod';
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from './checkout.js';
import { ORDER_STATUSES } from './orders.js';

/** A cart line as the browser sends it: what and how many, never a price to trust. */
export const cartLineInput = z.object({
  productId: z.string().trim().min(1).max(100),
  size: z.string().trim().min(1).max(20).nullable(),
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
  /** The unit price the shopper last saw, only to tell them it changed; never used to charge. */
  seenUnitPriceMinor: z.number().int().min(0).optional(),
});

export const cartInput = z.object({ lines: z.array(cartLineInput).min(1).max(MAX_CART_LINES) });
export const sessionIdInput = z.object({ sessionId: z.string().trim().min(1).max(300) });

export const orderListInput = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  cursor: z.number().int().min(0).max(1_000_000).nullish(),
  limit: z.number().int().min(1).max(100).default(25),
});
export const orderIdInput = z.object({ id: z.string().trim().min(1).max(100) });
