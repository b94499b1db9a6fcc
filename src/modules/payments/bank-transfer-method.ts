import { PAYMENT_METHOD_LABEL } from '../../shared/payment-methods.js';
import { notForCountry, offeredIn } from './method-countries.js';
import type { PaymentMethod } from './payment-method.js';

const DAY_MS = 24 * 60 * 60_000;

/** Bank transfer: in its countries; a pending order holds its stock for the owner's holding time. */
export const bankTransferMethod: PaymentMethod = {
  id: 'bank_transfer',
  enabled: (s) => s.bankTransfer.enabled,
  offer: (s, _cart, country) =>
    offeredIn(s.bankTransfer.countries, country)
      ? { available: true, reason: null, feeMinor: 0 }
      : { available: false, reason: notForCountry(PAYMENT_METHOD_LABEL.bank_transfer), feeMinor: 0 },
  chargesShipping: true,
  pendingTerms: (s, now) => ({
    holdUntil: new Date(now.getTime() + s.bankTransfer.holdDays * DAY_MS),
    confirmBy: null,
  }),
};
