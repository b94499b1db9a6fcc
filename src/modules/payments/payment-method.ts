import type { PaymentMethodName, PaymentMethodSettings } from '../../shared/payment-methods.js';
import { bankTransferMethod } from './bank-transfer-method.js';
import { cardMethod } from './card-method.js';
import { cashOnDeliveryMethod } from './cash-on-delivery-method.js';

/** What a cart costs before the method's own fee: lines less discounts, plus shipping. */
export type CartAmount = { currency: string; amountMinor: number };

/** A method's answer for one cart and country: refused ones say why, in the shopper's words. */
export type MethodOffer = { available: boolean; reason: string | null; feeMinor: number };

/** How long a pending order of this method holds its stock, and whether it waits for a confirmation. */
export type PendingTerms = {
  /** The stock is held until then; unpaid or unconfirmed by then, the order expires. */
  holdUntil: Date;
  /** Cash on delivery: the shopper must confirm before this; null for methods without a confirmation. */
  confirmBy: Date | null;
};

/**
 * A way to pay (decision 0038): checkout, the order page and the sweep ask the method rather than switch on
 * its name. Card is the existing PaymentGateway (Stripe or the demo), untouched; the offline methods are
 * placed by the store itself and say how long their pending orders hold stock.
 */
export type PaymentMethod = {
  id: PaymentMethodName;
  enabled(settings: PaymentMethodSettings): boolean;
  /** Whether this cart may be paid this way when shipped to `country`, and the method's fee. */
  offer(settings: PaymentMethodSettings, cart: CartAmount, country: string): MethodOffer;
  /** Whether checkout charges the shop's shipping itself (the card's provider page charges it instead). */
  chargesShipping: boolean;
  /** Null for the card (its provider session says when it ends); the offline methods' hold and deadline. */
  pendingTerms(settings: PaymentMethodSettings, now: Date): PendingTerms | null;
};

export const PAYMENT_METHOD_PORTS: readonly PaymentMethod[] = [
  cardMethod,
  cashOnDeliveryMethod,
  bankTransferMethod,
];

export function paymentMethodOf(id: PaymentMethodName): PaymentMethod {
  const method = PAYMENT_METHOD_PORTS.find((m) => m.id === id);
  if (!method) throw new Error(`unknown payment method ${id}`);
  return method;
}
