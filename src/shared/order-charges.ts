/**
 * What an order's lines and totals show of its sales and code (decision 0037), the same for the shopper's
 * page, the emails, the packing slip, the admin's detail and the CSV, so they agree to the minor unit. Only
 * reads what the order kept; prices nothing again. An order from before sales (no regular price, no code
 * share) reads exactly as it always did.
 */

import { shareByWeight } from './discounts.js';

/** A line as the order keeps it, for showing what it was charged. */
export type ChargedLineFacts = {
  quantity: number;
  /** The unit price charged (the sale price when a sale applied). */
  unitPriceMinor: number;
  /** What the line was charged: unit × quantity less its share of the code. */
  lineTotalMinor: number;
  /** The price before any sale; null on lines from before sales. */
  regularUnitPriceMinor: number | null;
  /** The line's share of the code's discount. */
  discountMinor: number;
  saleName: string | null;
};

/** The regular unit price to strike through: only when a sale took something off the unit. */
export function struckRegularPrice(
  line: Pick<ChargedLineFacts, 'regularUnitPriceMinor' | 'unitPriceMinor'>,
): number | null {
  const regular = line.regularUnitPriceMinor;
  return regular !== null && regular > line.unitPriceMinor ? regular : null;
}

/** A line at its unit price before the code: unit × quantity (= its charged total plus its code share). */
export function lineSubtotal(line: Pick<ChargedLineFacts, 'lineTotalMinor' | 'discountMinor'>): number {
  return line.lineTotalMinor + line.discountMinor;
}

export type OrderCharges = {
  /** The lines at their (sale) prices, before the code. */
  subtotalMinor: number;
  /** What the code took off; 0 when none. */
  discountMinor: number;
  /** "Discount (EID10)", or "Discount" when the code is not known. */
  discountLabel: string;
  /** Shipping and any adjustment: what was paid beyond the discounted lines. */
  adjustmentsMinor: number;
  /** What was paid, shipping included. */
  totalMinor: number;
};

/**
 * The order's totals as every view shows them: subtotal − discount + adjustments = total, exactly. An order
 * without a discount keeps its own recorded subtotal (as before); one with a discount takes the subtotal from
 * its lines, so the discount line always sits between the lines and the total whatever the subtotal column
 * held. A discount the lines carry no share of (one Stripe applied) is the order's own.
 */
export function orderCharges(
  order: { subtotalMinor: number; paidMinor: number; discountMinor: number; discountCode: string | null },
  lines: ReadonlyArray<Pick<ChargedLineFacts, 'lineTotalMinor' | 'discountMinor'>>,
): OrderCharges {
  const shares = lines.reduce((s, l) => s + l.discountMinor, 0);
  const discountMinor = order.discountMinor > 0 ? order.discountMinor : shares;
  const subtotalMinor =
    discountMinor > 0 ? lines.reduce((s, l) => s + lineSubtotal(l), 0) : order.subtotalMinor;
  return {
    subtotalMinor,
    discountMinor,
    discountLabel: order.discountCode ? `Discount (${order.discountCode})` : 'Discount',
    adjustmentsMinor: order.paidMinor - (subtotalMinor - discountMinor),
    totalMinor: order.paidMinor,
  };
}

/**
 * What each line was charged in the end, for refunds: its own charged total, less its part of any discount
 * the order has beyond its lines' shares (one Stripe applied from a Dashboard promotion code, recorded on the
 * order alone), shared in proportion by the largest remainder. With a store code the lines carry the whole
 * discount already and these are their charged totals unchanged.
 */
export function chargedLineTotals(
  orderDiscountMinor: number,
  lines: ReadonlyArray<Pick<ChargedLineFacts, 'lineTotalMinor' | 'discountMinor'>>,
): number[] {
  const carried = lines.reduce((s, l) => s + l.discountMinor, 0);
  const totals = lines.map((l) => l.lineTotalMinor);
  const beyond = Math.min(
    orderDiscountMinor - carried,
    totals.reduce((s, x) => s + x, 0),
  );
  if (beyond <= 0) return totals;
  const shares = shareByWeight(beyond, totals);
  return totals.map((t, i) => t - (shares[i] ?? 0));
}
