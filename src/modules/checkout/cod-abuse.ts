import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { PaymentMethodSettings } from '../../shared/payment-methods.js';
import { phoneRefusedForReturns } from '../orders/phone-refusal.js';
import { postalAddressOf } from '../orders/postal-address.js';

/**
 * The abuse limits of cash on delivery (decision 0038), counted in the database: unconfirmed orders are
 * orders, not requests. Called in the placing transaction after `oneAtATime('cod-limits')`, so two
 * placements at once cannot both pass the last free place.
 */

export type CodShopper = {
  phone: string;
  email: string;
  address: { line1: string; city: string; country: string };
};

/** An address as the limit compares it: case, spacing and punctuation do not make a new address. */
export function addressKey(a: { line1: string; city: string; country: string }): string {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return `${norm(a.line1)}|${norm(a.city)}|${a.country.toUpperCase()}`;
}

/** Why this shopper may not place another cash-on-delivery order, in their words; null when they may. */
export async function codRefusal(
  trx: DbOrTx,
  settings: PaymentMethodSettings,
  shopper: CodShopper,
): Promise<string | null> {
  const { limits } = settings;
  const pending = () =>
    trx
      .selectFrom('orders')
      .where('payment_method', '=', 'cash_on_delivery')
      .where('status', '=', 'pending')
      .where('fulfilment', '!=', 'cancelled');
  const count = async (q: ReturnType<typeof pending>) =>
    Number((await q.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
  const unconfirmed =
    'Please confirm your earlier cash-on-delivery orders (the link is in their emails) before placing another.';
  if ((await count(pending().where('phone', '=', shopper.phone))) >= limits.unconfirmedPerPhone)
    return `This phone number has too many unconfirmed orders. ${unconfirmed}`;
  if (
    (await count(pending().where(sql<string>`lower(customer_email)`, '=', shopper.email.toLowerCase()))) >=
    limits.unconfirmedPerEmail
  )
    return `This email address has too many unconfirmed orders. ${unconfirmed}`;
  // Addresses are compared after normalising, so they are read (pending COD orders are few: they expire).
  const key = addressKey(shopper.address);
  const addresses = await pending().select('shipping_address').execute();
  const same = addresses.filter((r) => {
    const a = postalAddressOf(r.shipping_address);
    return a !== null && addressKey(a) === key;
  }).length;
  if (same >= limits.unconfirmedPerAddress)
    return `This address has too many unconfirmed orders. ${unconfirmed}`;
  if (await phoneRefusedForReturns(trx, settings, shopper.phone))
    return 'Cash on delivery is not available for this phone number because its recent parcels were returned. Please choose another way to pay, or contact us.';
  return null;
}

/** The owner trusts this phone again: its returns so far no longer refuse it. */
export async function liftPhoneRefusal(
  trx: DbOrTx,
  lift: { phone: string; by: string; now: Date },
): Promise<void> {
  const at = lift.now.toISOString();
  await trx
    .insertInto('cod_phone_trust')
    .values({ phone: lift.phone, lifted_at: at, lifted_by: lift.by.slice(0, 254) })
    .onConflict((oc) => oc.column('phone').doUpdateSet({ lifted_at: at, lifted_by: lift.by.slice(0, 254) }))
    .execute();
}
