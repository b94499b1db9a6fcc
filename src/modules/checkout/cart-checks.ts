import { TRPCError } from '@trpc/server';
import { PROBLEM_TEXT } from '../../shared/checkout.js';
import type { NewOrderLine } from '../orders/orders.repository.js';
import type { PricedQuote } from './quote.js';

/**
 * What every way to pay refuses before an order is made, with the shopper's reason: a line that cannot be
 * bought as it is, mixed currencies, an empty cart, a code that does not apply, a per-address code without
 * an address. Returns the cart's currency.
 */
export function refuseUnbuyable(priced: PricedQuote, email: string | null): string {
  const { quote } = priced;
  const problem = quote.lines.find((l) => l.problem !== null && l.problem !== 'price_changed');
  if (problem?.problem) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `${problem.title ?? 'An item'}: ${PROBLEM_TEXT[problem.problem]}`,
    });
  }
  if (quote.currencies.length > 1) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `Your cart mixes currencies (${quote.currencies.map((c) => c.toUpperCase()).join(' and ')}). Please check out items of one currency at a time.`,
    });
  }
  const currency = quote.currency;
  if (!currency)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Please add items before checking out.' });
  // A code that does not apply is never dropped in silence: the shopper sees why, and may remove it.
  if (quote.codeRefusal) throw new TRPCError({ code: 'BAD_REQUEST', message: quote.codeRefusal.message });
  if (priced.code?.maxUsesPerEmail != null && email === null) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'This code can be used only a few times per email address: please enter your email address.',
    });
  }
  return currency;
}

/** The order's line snapshot from a priced cart. */
export function orderLinesOf(priced: PricedQuote): NewOrderLine[] {
  return priced.quote.lines.map((l, i) => ({
    productId: l.productId,
    title: l.title ?? '',
    colour: l.colour,
    size: l.size,
    quantity: l.quantity,
    unitPriceMinor: l.unitPriceMinor ?? 0,
    imageUrl: l.image,
    regularUnitPriceMinor: l.regularUnitPriceMinor ?? l.unitPriceMinor ?? 0,
    saleId: priced.saleIds[i] ?? null,
    saleName: l.sale?.name ?? null,
    discountMinor: l.codeDiscountMinor,
    fitCm: priced.fits[i] ?? null,
  }));
}
