import type { DbOrTx } from '../../db/database.js';

/**
 * Whether the owner lets shoppers enter Stripe Dashboard promotion codes on Stripe's page
 * (settings.stripe_promotion_codes, decision 0037). Read straight from the settings row: off when unset.
 */
export async function stripePromotionCodesAllowed(db: DbOrTx): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('stripe_promotion_codes')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.stripe_promotion_codes ?? 0) === 1;
}
