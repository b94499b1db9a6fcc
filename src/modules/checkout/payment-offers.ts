import type { z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import type { cartLineInput } from '../../shared/checkout-input.js';
import {
  type OfferedPaymentMethod,
  PAYMENT_METHOD_LABEL,
  type PaymentMethodSettings,
} from '../../shared/payment-methods.js';
import { PAYMENT_METHOD_PORTS } from '../payments/payment-method.js';
import { readPaymentMethods } from '../settings/payment-method-settings.js';
import { readShipping } from '../settings/settings.repository.js';
import { type CartCode, type PricedQuote, priceCart } from './quote.js';

export type PaymentOffers = {
  methods: OfferedPaymentMethod[];
  priced: PricedQuote;
  settings: PaymentMethodSettings;
  /** What an offline order charges for shipping (the card's payment page charges its own). */
  shippingMinor: number;
};

/**
 * Every enabled method for this cart shipped to `country`, priced on the server, each available or with the
 * reason it is not. Offline methods charge the shop's first shipping option in the cart's currency (free
 * with a free-shipping code, nothing when the shop has none); the card leaves shipping to its payment page.
 * Checkout's placing asks the same function, so what the shopper was offered is what is checked.
 */
export async function offerPaymentMethods(
  db: DbOrTx,
  cart: { lines: Array<z.infer<typeof cartLineInput>> } & CartCode,
  country: string,
  now: Date,
): Promise<PaymentOffers> {
  const [priced, settings, shipping] = await Promise.all([
    priceCart(db, cart.lines, now, cart),
    readPaymentMethods(db),
    readShipping(db),
  ]);
  const { quote } = priced;
  const currency = quote.currency ?? quote.currencies[0] ?? settings.cashOnDelivery.currency;
  const option = shipping.options.find((o) => o.currency === currency);
  const shippingMinor = option && !quote.code?.freeShipping ? option.amountMinor : 0;
  const cartRefusal =
    quote.currency === null
      ? quote.currencies.length > 1
        ? 'Your cart mixes currencies: check out items of one currency at a time.'
        : 'Please add items before checking out.'
      : shipping.countries.includes(country)
        ? null
        : `This store does not ship to ${country}.`;
  const methods = PAYMENT_METHOD_PORTS.filter((m) => m.enabled(settings)).map((m): OfferedPaymentMethod => {
    const base = quote.totalMinor + (m.chargesShipping ? shippingMinor : 0);
    const offer = m.offer(settings, { currency, amountMinor: base }, country);
    const { feeMinor } = offer;
    return {
      id: m.id,
      label: PAYMENT_METHOD_LABEL[m.id],
      available: cartRefusal === null && offer.available,
      reason: cartRefusal ?? offer.reason,
      feeMinor,
      currency,
      totalMinor: base + feeMinor,
    };
  });
  return { methods, priced, settings, shippingMinor };
}
