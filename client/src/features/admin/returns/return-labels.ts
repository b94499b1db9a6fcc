import { formatMoney } from '@shared/money';
import { RETURN_REASON_LABEL, type ReturnReasonName, type ReturnStatusName } from '@shared/returns';

export const RETURN_STATUS_STYLE: Record<ReturnStatusName, string> = {
  requested: 'bg-amber-100 text-amber-900',
  approved: 'bg-sky-100 text-sky-900',
  declined: 'bg-red-100 text-red-900',
  received: 'bg-violet-100 text-violet-900',
  closed: 'bg-emerald-100 text-emerald-900',
  cancelled: 'bg-stone-200 text-stone-700',
};

/** A reason as stored (the server's text): its label, or the text itself if it is new to this client. */
export const reasonLabel = (reason: string): string =>
  RETURN_REASON_LABEL[reason as ReturnReasonName] ?? reason;

/**
 * A price difference for the owner, by who owes whom: "Rs 500 owed by the shopper" (a dearer replacement),
 * "Rs 300 owed to the shopper" (a cheaper one).
 */
export function signedDifferenceText(amountMinor: number, currency: string): string {
  const amount = formatMoney(Math.abs(amountMinor), currency);
  if (amountMinor > 0) return `${amount} owed by the shopper`;
  if (amountMinor < 0) return `${amount} owed to the shopper`;
  return 'None';
}
