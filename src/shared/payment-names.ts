/** The names of payment methods and steps (decision 0038), imported by payment-methods.ts and the inputs. */

/** How a shopper pays (decision 0038). Card is Stripe Checkout, or the demo gateway in demo mode. */
export const PAYMENT_METHODS = ['card', 'cash_on_delivery', 'bank_transfer'] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];

/**
 * Where an order is, in one word for its method: the same statuses mean the same for every method
 * (decision 0038), and this names them the way the owner and the shopper think of each method.
 */
export const PAYMENT_STEPS = [
  'awaiting_payment',
  'payment_processing',
  'awaiting_confirmation',
  'confirmed',
  'awaiting_transfer',
  'paid',
  'shipped',
  'delivered',
  'collected',
  'returned',
  'payment_failed',
  'expired',
  'cancelled',
] as const;
export type PaymentStep = (typeof PAYMENT_STEPS)[number];
