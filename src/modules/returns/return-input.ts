import { z } from 'zod';
import { RETURN_LIMITS, RETURN_REASONS } from '../../shared/returns.js';

/** The order page's key, as orderPage.view takes it (checkout-input.ts orderPageInput), under the contract's names. */
const orderPageKey = {
  orderId: z.string().trim().min(1).max(100),
  token: z.string().trim().min(1).max(200),
};

export const returnOptionsInput = z.object(orderPageKey);

const returnLineInput = z.object({
  lineId: z.number({ error: 'Choose an item of this order.' }).int().positive().max(Number.MAX_SAFE_INTEGER),
  quantity: z
    .number({ error: 'Give how many to return.' })
    .int('Give a whole number of items.')
    .min(1, 'Return at least one item.')
    .max(RETURN_LIMITS.maxQuantity, 'That is more than this order has.'),
  exchange: z
    .object({
      size: z.string().trim().min(1, 'Choose a size.').max(50, 'Choose one of the sizes offered.'),
      colour: z.string().trim().max(100, 'Choose one of the colours offered.').nullish(),
    })
    .optional(),
});

export const requestReturnInput = z
  .object({
    ...orderPageKey,
    reason: z.enum(RETURN_REASONS, { error: 'Choose a reason.' }),
    reasonText: z
      .string()
      .trim()
      .max(RETURN_LIMITS.maxReasonText, `Keep the reason under ${RETURN_LIMITS.maxReasonText} characters.`)
      .optional(),
    lines: z
      .array(returnLineInput)
      .min(1, 'Choose at least one item to return.')
      .max(RETURN_LIMITS.maxLines, `A return may name at most ${RETURN_LIMITS.maxLines} items.`),
  })
  .superRefine((v, ctx) => {
    if (v.reason === 'other' && !v.reasonText)
      ctx.addIssue({ code: 'custom', path: ['reasonText'], message: 'Tell us why you are returning it.' });
    const ids = v.lines.map((l) => l.lineId);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'Name each item once.' });
    const exchanges = v.lines.filter((l) => l.exchange).length;
    if (exchanges > 0 && exchanges < v.lines.length)
      ctx.addIssue({
        code: 'custom',
        path: ['lines'],
        message:
          'Choose a replacement for every item, or a refund for all of them (make two requests for both).',
      });
  });
export type RequestReturnInput = z.infer<typeof requestReturnInput>;

export const cancelReturnInput = z.object({ ...orderPageKey, returnId: z.string().trim().min(1).max(100) });

/** Opens the payment of an exchange's price difference (decision 0039), with the order page's key. */
export const payReturnDifferenceInput = z.object({
  ...orderPageKey,
  returnId: z.string().trim().min(1).max(100),
});
