import type { PaymentMethodId } from '../../db/database.js';
import type { PaymentMethodSettings } from '../../shared/payment-methods.js';
import { paymentMethodOf } from '../payments/payment-method.js';

/**
 * When a pending offline order runs out: at the deadline stored when it was placed (the confirmation's for
 * cash on delivery, the transfer's for a bank transfer), the same instant its stock is held until. An order
 * placed without one reckons it from its placing.
 */
export function pendingDeadline(
  settings: PaymentMethodSettings,
  order: { payment_method: PaymentMethodId; created_at: string; confirm_by: string | null },
): Date {
  if (order.confirm_by) return new Date(order.confirm_by);
  const terms = paymentMethodOf(order.payment_method).pendingTerms(settings, new Date(order.created_at));
  return terms?.holdUntil ?? new Date(order.created_at);
}
