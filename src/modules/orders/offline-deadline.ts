import type { PaymentMethodId } from '../../db/database.js';
import type { PaymentMethodSettings } from '../../shared/payment-methods.js';
import { paymentMethodOf } from '../payments/payment-method.js';

/**
 * When a pending offline order runs out: cash on delivery at its stored confirmation deadline; a transfer
 * at its placing plus the holding time (as the method reckons it). Null for a card order (its provider's
 * session ends it).
 */
export function pendingDeadline(
  settings: PaymentMethodSettings,
  order: { payment_method: PaymentMethodId; created_at: string; confirm_by: string | null },
): Date {
  if (order.confirm_by) return new Date(order.confirm_by);
  const terms = paymentMethodOf(order.payment_method).pendingTerms(settings, new Date(order.created_at));
  return terms?.holdUntil ?? new Date(order.created_at);
}
