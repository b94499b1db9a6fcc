import { formatMoney } from '../../shared/money.js';
import { PAYMENT_METHOD_LABEL } from '../../shared/payment-methods.js';
import { notForCountry, offeredIn } from './method-countries.js';
import type { PaymentMethod } from './payment-method.js';

const HOUR_MS = 60 * 60_000;

/**
 * Cash on delivery: only in its countries, only for carts in its currency (the fee and the maximum are in
 * it), and only up to its maximum, fee included. A pending order waits for the shopper's confirmation.
 */
export const cashOnDeliveryMethod: PaymentMethod = {
  id: 'cash_on_delivery',
  enabled: (s) => s.cashOnDelivery.enabled,
  offer: (s, cart, country) => {
    const cod = s.cashOnDelivery;
    const refuse = (reason: string) => ({ available: false, reason, feeMinor: cod.feeMinor });
    if (!offeredIn(cod.countries, country))
      return refuse(notForCountry(PAYMENT_METHOD_LABEL.cash_on_delivery));
    if (cart.currency !== cod.currency)
      return refuse(`Cash on delivery is only for orders in ${cod.currency.toUpperCase()}.`);
    if (cod.maxOrderMinor !== null && cart.amountMinor + cod.feeMinor > cod.maxOrderMinor)
      return refuse(`Cash on delivery is for orders up to ${formatMoney(cod.maxOrderMinor, cod.currency)}.`);
    return { available: true, reason: null, feeMinor: cod.feeMinor };
  },
  chargesShipping: true,
  pendingTerms: (s, now) => {
    const by = new Date(now.getTime() + s.cashOnDelivery.confirmHours * HOUR_MS);
    return { holdUntil: by, confirmBy: by };
  },
};
