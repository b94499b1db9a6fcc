import { formatMoney } from '@shared/money';
import type { PaymentMethodName } from '@shared/payment-names';
import type { CustomerReturnView, ReturnStatusName } from '@shared/returns';

/**
 * An exchange for a size or colour at another regular price has a price difference (decision 0039): the
 * shopper pays a dearer one, the shop gives back a cheaper one's. Its wording for the shopper, apart from
 * React so it is tested on its own; the amounts are the server's, never reckoned here.
 */

/** Beside an offered replacement, per unit: "+Rs 500 to pay", "Rs 300 back", nothing when the same price. */
export function offerDifferenceText(perUnitMinor: number, currency: string): string {
  if (perUnitMinor > 0) return `+${formatMoney(perUnitMinor, currency)} to pay`;
  if (perUnitMinor < 0) return `${formatMoney(-perUnitMinor, currency)} back`;
  return '';
}

/** Under the chosen replacement, why an amount shows: regular prices differ, per item. Null when the same. */
export function pricedDifferenceNote(perUnitMinor: number, currency: string): string | null {
  const amount = formatMoney(Math.abs(perUnitMinor), currency);
  if (perUnitMinor > 0) return `At regular prices each costs ${amount} more: you pay the difference.`;
  if (perUnitMinor < 0)
    return `At regular prices each costs ${amount} less: the shop pays you the difference.`;
  return null;
}

export type ReturnDifference = NonNullable<CustomerReturnView['difference']>;

/**
 * A return's difference in the shopper's words: what it is now, and, while it is still to pay and cannot be
 * paid from the page, when or how it will be.
 */
export function returnDifferenceText(
  difference: ReturnDifference,
  context: { returnStatus: ReturnStatusName; paymentMethod: PaymentMethodName; currency: string },
): { summary: string; hint: string | null } {
  const amount = formatMoney(Math.abs(difference.amountMinor), context.currency);
  const ended = context.returnStatus === 'declined' || context.returnStatus === 'cancelled';
  // An exchange that ended unshipped: a difference paid goes back, one due is owed no more.
  if (ended && difference.amountMinor > 0) {
    if (difference.status === 'due')
      return { summary: `Price difference: ${amount}, nothing to pay now.`, hint: null };
    if (difference.status === 'to_refund')
      return { summary: `The ${amount} you paid will be refunded.`, hint: null };
    if (difference.status === 'refunded')
      return { summary: `The ${amount} you paid was refunded to you.`, hint: null };
  }
  switch (difference.status) {
    case 'due':
      return {
        summary: `Price difference: ${amount} to pay.`,
        hint: difference.canPay ? null : dueHint(context.returnStatus, context.paymentMethod),
      };
    case 'paid':
      return { summary: `Price difference: ${amount}, paid.`, hint: null };
    case 'collect_on_delivery':
      return {
        summary: `Price difference: ${amount}, to pay the courier when your replacement arrives.`,
        hint: null,
      };
    case 'to_refund':
      return {
        summary: `Price difference: ${amount} back to you.`,
        hint: 'The shop pays it back when it sends your replacement.',
      };
    case 'refunded':
      return { summary: `Price difference: ${amount}, paid back to you.`, hint: null };
    case 'none':
      return { summary: '', hint: null };
  }
}

function dueHint(returnStatus: ReturnStatusName, paymentMethod: PaymentMethodName): string | null {
  if (returnStatus === 'declined' || returnStatus === 'cancelled') return null;
  if (paymentMethod === 'cash_on_delivery') return 'You pay it to the courier with your replacement.';
  if (paymentMethod === 'card' && returnStatus === 'requested')
    return 'You can pay it here once the shop approves your return.';
  return 'The shop will tell you how to pay it.';
}

/** A line's own difference (its units' total), said after the replacement it is for; '' when none. */
export function lineDifferenceText(lineMinor: number, currency: string): string {
  if (lineMinor > 0) return ` (${formatMoney(lineMinor, currency)} more)`;
  if (lineMinor < 0) return ` (${formatMoney(-lineMinor, currency)} less)`;
  return '';
}
