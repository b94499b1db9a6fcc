import { z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import {
  DEFAULT_RETURN_SETTINGS,
  RETURN_REASONS,
  RETURN_SETTING_LIMITS,
  type ReturnSettings,
} from '../../shared/returns.js';

/** The owner's return settings as stored and as the admin's form sends them (decision 0039). */
export const returnSettingsSchema = z.object({
  windowDays: z.number().int().min(0).max(RETURN_SETTING_LIMITS.maxWindowDays),
  refundReasons: z
    .array(z.enum(RETURN_REASONS))
    .max(RETURN_REASONS.length)
    .transform((list) => RETURN_REASONS.filter((r) => list.includes(r))),
  postagePaidBy: z.enum(['shopper', 'shop']),
  instructions: z.string().trim().max(RETURN_SETTING_LIMITS.maxInstructions),
  finalSaleTags: z
    .array(z.string().trim().min(1).max(RETURN_SETTING_LIMITS.maxTagLength))
    .max(RETURN_SETTING_LIMITS.maxFinalSaleTags)
    .transform((tags) => [...new Set(tags.map((t) => t.toLowerCase()))]),
}) satisfies z.ZodType<ReturnSettings, unknown>;

/**
 * The settings column's JSON read field by field over the defaults: a field missing (a store from before
 * returns) or hand-edited into nonsense falls back alone, so a bad instructions text never opens refunds.
 */
export function readReturnSettings(json: string | null | undefined): ReturnSettings {
  let stored: unknown = {};
  try {
    stored = JSON.parse(json ?? '{}');
  } catch {
    stored = {};
  }
  const value =
    typeof stored === 'object' && stored !== null && !Array.isArray(stored)
      ? (stored as Record<string, unknown>)
      : {};
  const field = <K extends keyof ReturnSettings>(key: K): ReturnSettings[K] => {
    const parsed = returnSettingsSchema.shape[key].safeParse(value[key]);
    return (parsed.success ? parsed.data : DEFAULT_RETURN_SETTINGS[key]) as ReturnSettings[K];
  };
  return {
    windowDays: field('windowDays'),
    refundReasons: field('refundReasons'),
    postagePaidBy: field('postagePaidBy'),
    instructions: field('instructions'),
    finalSaleTags: field('finalSaleTags'),
  };
}

export async function loadReturnSettings(db: DbOrTx): Promise<ReturnSettings> {
  const row = await db.selectFrom('settings').select('returns').where('id', '=', 1).executeTakeFirst();
  return readReturnSettings(row?.returns);
}

export async function saveReturnSettings(db: DbOrTx, settings: ReturnSettings, now: Date): Promise<void> {
  await db
    .updateTable('settings')
    .set({ returns: JSON.stringify(settings), updated_at: now.toISOString() })
    .where('id', '=', 1)
    .execute();
}
