import { RETURN_REASONS, RETURN_SETTING_LIMITS } from '@shared/returns';
import { z } from 'zod';

const { maxWindowDays, maxInstructions, maxFinalSaleTags, maxTagLength } = RETURN_SETTING_LIMITS;

const windowMessage = `Enter a whole number from 0 to ${maxWindowDays}`;

/** The server's bounds (src/modules/returns/return-settings.ts), in words for the owner. */
export const returnSettingsCheck = z.object({
  // An emptied field holds NaN (WholeNumberField): the same words, not Zod's "expected number".
  windowDays: z
    .number({ error: windowMessage })
    .int(windowMessage)
    .min(0, windowMessage)
    .max(maxWindowDays, windowMessage),
  refundReasons: z.array(z.enum(RETURN_REASONS)),
  postagePaidBy: z.enum(['shopper', 'shop']),
  instructions: z.string().max(maxInstructions, `At most ${maxInstructions} characters`),
  finalSaleTags: z
    .array(z.string().trim().min(1).max(maxTagLength, `A tag has at most ${maxTagLength} characters`))
    .max(maxFinalSaleTags, `At most ${maxFinalSaleTags} tags`),
});
