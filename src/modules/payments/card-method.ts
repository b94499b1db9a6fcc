import { PAYMENT_METHOD_LABEL } from '../../shared/payment-methods.js';
import { notForCountry, offeredIn } from './method-countries.js';
import type { PaymentMethod } from './payment-method.js';

/** Card: Stripe Checkout, or the demo gateway in demo mode (the existing PaymentGateway, unchanged). */
export const cardMethod: PaymentMethod = {
  id: 'card',
  enabled: (s) => s.card.enabled,
  offer: (s, _cart, country) =>
    offeredIn(s.card.countries, country)
      ? { available: true, reason: null, feeMinor: 0 }
      : { available: false, reason: notForCountry(PAYMENT_METHOD_LABEL.card), feeMinor: 0 },
  chargesShipping: false,
  pendingTerms: () => null,
};
