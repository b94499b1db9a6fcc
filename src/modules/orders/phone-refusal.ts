import type { DbOrTx } from '../../db/database.js';
import type { PaymentMethodSettings } from '../../shared/payment-methods.js';

/**
 * A phone whose last `returnsBeforeRefusal` cash-on-delivery orders that went out all came back, each
 * after the owner last lifted the refusal (if ever), is refused.
 */
export async function phoneRefusedForReturns(
  trx: DbOrTx,
  settings: PaymentMethodSettings,
  phone: string,
): Promise<boolean> {
  const n = settings.limits.returnsBeforeRefusal;
  const last = await trx
    .selectFrom('orders')
    .select(['status', 'returned_at', 'updated_at'])
    .where('payment_method', '=', 'cash_on_delivery')
    .where('phone', '=', phone)
    // The orders that went out: confirmed, collected or returned (unconfirmed or expired ones never left).
    .where('status', 'in', ['processing', 'paid', 'payment_failed'])
    .orderBy('created_at', 'desc')
    .limit(n)
    .execute();
  if (last.length < n || last.some((o) => o.status !== 'payment_failed')) return false;
  const trust = await trx
    .selectFrom('cod_phone_trust')
    .select('lifted_at')
    .where('phone', '=', phone)
    .executeTakeFirst();
  if (!trust) return true;
  return last.every((o) => (o.returned_at ?? o.updated_at) > trust.lifted_at);
}
