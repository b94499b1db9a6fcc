import {
  RETURN_LIMITS,
  RETURN_REASON_LABEL,
  RETURN_REASONS,
  type ReturnOption,
  type ReturnOptionsView,
  type ReturnReasonName,
  type ReturnResolutionName,
  type ReturnStatusName,
} from '@shared/returns';

/**
 * The shopper's return form (issue 43) as plain data and checks, apart from React so the reason → offer rules
 * and the form's validation are tested on their own. The server checks it all again.
 */

/** A replacement the shop offers (orderPage.returnOptions): a size (and colour) of the same product. */
export type ExchangeOption = ReturnOption;
export type { ReturnOptionsView };
/** One order line as orderPage.returnOptions answers it. */
export type ReturnableLine = ReturnOptionsView['lines'][number];

export type Resolution = ReturnResolutionName;

export const MAX_REASON_TEXT = RETURN_LIMITS.maxReasonText;

/** What the shopper has chosen so far; quantities are kept as typed, options by key (optionKey). */
export type ReturnFormValues = {
  reason: ReturnReasonName | '';
  reasonText: string;
  resolution: Resolution | '';
  lines: Record<number, { selected: boolean; quantity: string; exchange: string }>;
};

/** What orderPage.requestReturn takes, less the order's id and token. */
export type ReturnRequest = {
  reason: ReturnReasonName;
  reasonText?: string;
  lines: Array<{ lineId: number; quantity: number; exchange?: { size: string; colour?: string } }>;
};

export const REASON_CHOICES = RETURN_REASONS.map((id) => ({ id, label: RETURN_REASON_LABEL[id] }));

export function isFitReason(reason: ReturnReasonName | ''): reason is 'too_small' | 'too_big' {
  return reason === 'too_small' || reason === 'too_big';
}

/** Whether the owner lets this reason end in a refund (settings.refundReasons); otherwise exchange only. */
export function refundAllowed(reason: ReturnReasonName | '', refundReasons: readonly ReturnReasonName[]) {
  return reason !== '' && refundReasons.includes(reason);
}

export function optionKey(option: ExchangeOption): string {
  return `${option.size}\u0000${option.colour ?? ''}`;
}

/** "L", or "L, Teal" once colours are in play. */
export function optionName(option: ExchangeOption): string {
  const colour = option.colourName ?? option.colour;
  return colour ? `${option.size}, ${colour}` : option.size;
}

/** "in stock", "1 left": untracked sizes are simply offered. */
export function availabilityText(option: ExchangeOption): string {
  if (option.available === null || option.available > 5) return 'in stock';
  return `${option.available} left`;
}

/**
 * The replacements a line offers for a reason, the one to suggest first: for too small / too big the next
 * size up / down, then every other in-stock alternative (no duplicates). Out-of-stock options are never
 * offered (the server refuses them anyway).
 */
export function exchangeOffers(line: ReturnableLine, reason: ReturnReasonName | ''): ExchangeOption[] {
  const inStock = (o: ExchangeOption) => o.available === null || o.available > 0;
  const first = isFitReason(reason) ? line.nextSizes[reason] : null;
  const offers: ExchangeOption[] = [];
  const seen = new Set<string>();
  for (const option of [first, ...line.alternatives]) {
    if (!option || !inStock(option) || seen.has(optionKey(option))) continue;
    seen.add(optionKey(option));
    offers.push(option);
  }
  return offers;
}

/** Said beside the first offer for too small / too big: why it comes first. */
export function firstOfferNote(option: ExchangeOption, reason: 'too_small' | 'too_big'): string {
  return option.fitted
    ? ' (fits your measurements)'
    : ` (the next size ${reason === 'too_small' ? 'up' : 'down'})`;
}

/**
 * "L fits the measurements you gave": when the fit finder's measurements the line was bought with chose the
 * size offered first (decision 0040); null otherwise.
 */
export function fittedNote(line: ReturnableLine, reason: ReturnReasonName | ''): string | null {
  const first = isFitReason(reason) ? line.nextSizes[reason] : null;
  return first?.fitted ? `${optionName(first)} fits the measurements you gave when you ordered.` : null;
}

/** The line can be sent back online at all. */
export function lineReturnable(line: ReturnableLine): boolean {
  return !line.finalSale && line.returnable > 0;
}

/** The values the form starts with: nothing chosen. */
export function initialReturnForm(options: ReturnOptionsView): ReturnFormValues {
  const lines: ReturnFormValues['lines'] = {};
  for (const line of options.lines) lines[line.lineId] = { selected: false, quantity: '1', exchange: '' };
  return { reason: '', reasonText: '', resolution: '', lines };
}

/**
 * After the reason changes: each chosen line's replacement becomes the reason's first offer (the next size
 * for a fit), and a refund the reason no longer allows turns back into an exchange.
 */
export function withReason(
  values: ReturnFormValues,
  reason: ReturnReasonName,
  options: ReturnOptionsView,
): ReturnFormValues {
  const lines: ReturnFormValues['lines'] = {};
  for (const line of options.lines) {
    const current = values.lines[line.lineId] ?? { selected: false, quantity: '1', exchange: '' };
    const first = exchangeOffers(line, reason)[0];
    lines[line.lineId] = { ...current, exchange: first ? optionKey(first) : '' };
  }
  const refundOk = refundAllowed(reason, options.settings.refundReasons);
  const resolution = values.resolution === 'refund' && !refundOk ? 'exchange' : values.resolution;
  return { ...values, reason, lines, resolution: resolution === '' ? 'exchange' : resolution };
}

export type ReturnFormCheck = { errors: Record<string, string>; request: ReturnRequest | null };

/**
 * Checks the shopper's choices against what the shop offers; the error keys are the form's fields
 * ('lines', 'lines.12.quantity', 'lines.12.exchange', 'reason', 'reasonText', 'resolution') in the order
 * the form shows them.
 */
export function checkReturnForm(values: ReturnFormValues, options: ReturnOptionsView): ReturnFormCheck {
  const errors: Record<string, string> = {};
  const chosen = options.lines.filter((l) => lineReturnable(l) && values.lines[l.lineId]?.selected);
  if (chosen.length === 0) errors.lines = 'Choose at least one item to return.';
  const quantities = new Map<number, number>();
  for (const line of chosen) {
    const text = (values.lines[line.lineId]?.quantity ?? '').trim();
    const quantity = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > line.returnable) {
      errors[`lines.${line.lineId}.quantity`] =
        line.returnable === 1 ? 'Enter 1.' : `Enter a number from 1 to ${line.returnable}.`;
    } else quantities.set(line.lineId, quantity);
  }
  const reason = values.reason;
  if (reason === '') errors.reason = 'Choose why you are returning it.';
  const reasonText = values.reasonText.trim();
  if (reason === 'other' && reasonText === '') errors.reasonText = 'Tell us what is wrong.';
  else if (reasonText.length > MAX_REASON_TEXT)
    errors.reasonText = `Keep it to ${MAX_REASON_TEXT} characters (${reasonText.length} now).`;

  const refundOk = refundAllowed(reason, options.settings.refundReasons);
  if (reason !== '') {
    if (values.resolution === '') errors.resolution = 'Choose an exchange or a refund.';
    else if (values.resolution === 'refund' && !refundOk)
      errors.resolution = 'For this reason the shop offers an exchange only.';
  }
  const exchanges = new Map<number, ExchangeOption>();
  if (values.resolution === 'exchange' && reason !== '') {
    for (const line of chosen) {
      const offers = exchangeOffers(line, reason);
      const picked = offers.find((o) => optionKey(o) === values.lines[line.lineId]?.exchange);
      if (picked) exchanges.set(line.lineId, picked);
      else
        errors[`lines.${line.lineId}.exchange`] =
          offers.length === 0
            ? refundOk
              ? 'No other size is in stock: choose a refund instead.'
              : 'No other size is in stock: please contact the shop.'
            : 'Choose the size you would like instead.';
    }
  }
  if (Object.keys(errors).length > 0 || reason === '') return { errors, request: null };
  return {
    errors,
    request: {
      reason,
      ...(reasonText ? { reasonText } : {}),
      lines: chosen.map((line) => {
        const exchange = exchanges.get(line.lineId);
        return {
          lineId: line.lineId,
          quantity: quantities.get(line.lineId) ?? 1,
          ...(values.resolution === 'exchange' && exchange
            ? {
                exchange: {
                  size: exchange.size,
                  ...(exchange.colour !== null ? { colour: exchange.colour } : {}),
                },
              }
            : {}),
        };
      }),
    },
  };
}

/** A return's status in the shopper's words. */
export function returnStatusText(status: ReturnStatusName, resolution: Resolution): string {
  switch (status) {
    case 'requested':
      return 'Requested: waiting for the shop to approve it';
    case 'approved':
      return 'Approved: please send the items back';
    case 'declined':
      return 'Declined by the shop';
    case 'received':
      return resolution === 'exchange'
        ? 'Received: your replacement is being prepared'
        : 'Received: your refund is being prepared';
    case 'closed':
      return resolution === 'exchange' ? 'Done: your replacement has been sent' : 'Done: refunded';
    case 'cancelled':
      return 'Cancelled';
  }
}

/** The shopper may still call it off. */
export function cancellable(status: ReturnStatusName): boolean {
  return status === 'requested' || status === 'approved';
}
