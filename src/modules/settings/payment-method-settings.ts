import type { DbOrTx } from '../../db/database.js';
import { type PaymentMethodSettings, readPaymentMethodSettings } from '../../shared/payment-methods.js';

/** The owner's payment method settings (decision 0038); card only until the owner sets them. */
export async function readPaymentMethods(db: DbOrTx): Promise<PaymentMethodSettings> {
  const row = await db
    .selectFrom('settings')
    .select('payment_methods')
    .where('id', '=', 1)
    .executeTakeFirst();
  return readPaymentMethodSettings(row?.payment_methods);
}

export async function writePaymentMethods(
  db: DbOrTx,
  settings: PaymentMethodSettings,
  now: Date,
): Promise<void> {
  await db
    .updateTable('settings')
    .set({ payment_methods: JSON.stringify(settings), updated_at: now.toISOString() })
    .where('id', '=', 1)
    .execute();
}
