/** The most a "paid via" and a note may hold, as admin.returns' difference steps bound them. */
export const MAX_PAID_VIA = 100;
export const MAX_NOTE = 1000;

export type DifferencePaymentInput = { paidVia?: string; note?: string };

/** The server's words for a missing "paid via": money given back, or a difference the shopper paid. */
export const PAID_VIA_MISSING = {
  refund: 'Say how the money went back',
  payment: 'Say how it was paid',
} as const;

/**
 * The check of the forms that record how a price difference moved by hand (recorded paid, refunded, or
 * refunded when an exchange closes): "paid via" when it is needed, both within their bounds, trimmed; an
 * empty note is not sent. Error keys: 'paidVia', 'note'.
 */
export function checkDifferencePayment(
  values: { paidVia: string; note: string },
  paidViaNeeded: boolean,
  direction: keyof typeof PAID_VIA_MISSING = 'refund',
): { errors: Record<string, string>; input: DifferencePaymentInput | null } {
  const errors: Record<string, string> = {};
  const paidVia = values.paidVia.trim();
  const note = values.note.trim();
  if (paidViaNeeded && paidVia === '') errors.paidVia = PAID_VIA_MISSING[direction];
  else if (paidVia.length > MAX_PAID_VIA) errors.paidVia = `At most ${MAX_PAID_VIA} characters`;
  if (note.length > MAX_NOTE) errors.note = `At most ${MAX_NOTE} characters`;
  if (Object.keys(errors).length > 0) return { errors, input: null };
  return {
    errors,
    input: { ...(paidViaNeeded ? { paidVia } : {}), ...(note ? { note } : {}) },
  };
}
