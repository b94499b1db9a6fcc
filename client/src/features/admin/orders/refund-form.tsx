import { variantLabel } from '@shared/colours';
import { refundableForUnits } from '@shared/discounts';
import { formatMoney, parseMajorToMinor } from '@shared/money';
import { type FormEvent, useId, useState } from 'react';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { serverFieldErrors } from '../../../lib/use-zod-form';
import { failureMessage, useFocusOnOpen } from './action-panel';
import { type OrderDetail, useRefundOrder } from './use-orders';

type Mode = 'lines' | 'amount';

/** How a refund is usually paid back by hand, offered as suggestions (any words are taken). */
const PAID_VIA_SUGGESTIONS = ['Cash', 'Bank transfer', 'JazzCash/Easypaisa'];

/**
 * Gives money back: chosen lines (what they were charged, after sales and the code's share, per unit: the
 * amount shown as it adds up, as the server reckons it) or
 * an amount typed in major units and converted exactly (parseMajorToMinor, no floating point). The server has
 * the last word on what is left to refund; its refusal is said in the alert. A cash-on-delivery or
 * bank-transfer order has no provider to send money back through: its refund is recorded as paid back by
 * hand, with how and a note (decision 0038).
 */
export function RefundForm({
  order,
  onCancel,
  onDone,
}: {
  order: OrderDetail;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const { currency, refundableMinor } = order;
  const refundable = order.lines.filter((l) => l.quantity - l.refundedQuantity > 0);
  const [mode, setMode] = useState<Mode>(refundable.length > 0 ? 'lines' : 'amount');
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const manual = order.paymentMethod !== 'card';
  // Asked, not assumed: the record says how this refund really went back.
  const [paidVia, setPaidVia] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{
    lines?: string;
    amount?: string;
    reason?: string;
    paidVia?: string;
    note?: string;
  }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const refund = useRefundOrder();
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const id = useId();

  const chosen = refundable
    .map((l) => ({ line: l, quantity: quantities[l.id] ?? 0 }))
    .filter((c) => c.quantity > 0);
  // What the server gives back for these units: the line's charged total shared per unit (decision 0037).
  const linesMinor = chosen.reduce(
    (sum, c) => sum + refundableForUnits({ ...c.line, lineTotalMinor: c.line.chargedTotalMinor }, c.quantity),
    0,
  );
  const typedMinor = parseMajorToMinor(amountText, currency);
  const amountMinor = mode === 'lines' ? linesMinor : typedMinor;
  const maximum = formatMoney(refundableMinor, currency);

  const check = (): typeof errors => {
    const how = manual && paidVia.trim() === '' ? { paidVia: 'Say how the money was paid back' } : {};
    return { ...checkAmount(), ...how };
  };
  const checkAmount = (): typeof errors => {
    if (mode === 'lines') {
      if (chosen.length === 0) return { lines: 'Choose how many of at least one item to refund' };
      if (linesMinor > refundableMinor) return { lines: `At most ${maximum} can be refunded` };
      return {};
    }
    if (amountText.trim() === '') return { amount: 'Enter the amount to refund' };
    if (typedMinor === null)
      return { amount: `Enter an amount like 12.50, in ${currency.toUpperCase()} (no currency sign)` };
    if (typedMinor <= 0) return { amount: 'Enter an amount above zero' };
    if (typedMinor > refundableMinor) return { amount: `At most ${maximum} can be refunded` };
    return {};
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError();
      return;
    }
    const byHand = manual ? { paidVia: paidVia.trim(), note: note.trim() || undefined } : {};
    const input =
      mode === 'lines'
        ? {
            id: order.id,
            reason,
            ...byHand,
            lines: chosen.map((c) => ({ lineId: c.line.id, quantity: c.quantity })),
          }
        : { id: order.id, reason, ...byHand, amountMinor: typedMinor ?? 0 };
    refund.mutate(input, {
      onSuccess: (result) =>
        onDone(
          result.status === 'pending'
            ? `Refund of ${formatMoney(result.amountMinor, currency)} sent; waiting for its confirmation.`
            : manual
              ? `Recorded ${formatMoney(result.amountMinor, currency)} paid back by hand.`
              : `Refunded ${formatMoney(result.amountMinor, currency)}.`,
        ),
      onError: (err) => {
        const fields = serverFieldErrors(err.data);
        setErrors({
          lines: fields.lines,
          amount: fields.amountMinor,
          reason: fields.reason,
          paidVia: fields.paidVia,
          note: fields.note,
        });
        focusFirstError();
        setFailure(
          failureMessage(err) === 'Invalid input'
            ? 'Please correct the highlighted fields.'
            : failureMessage(err),
        );
      },
    });
  };

  return (
    <form ref={ref} onSubmit={submit} noValidate aria-label="Refund" className="space-y-4">
      {manual ? (
        <p
          className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="manual-refund-note"
        >
          This order was paid {order.paymentMethod === 'cash_on_delivery' ? 'in cash' : 'by bank transfer'}:
          the store cannot send the money back itself. Pay it back by hand, then record it here.
        </p>
      ) : null}
      <p className="text-sm">
        Refundable: <strong data-testid="refundable">{maximum}</strong>
        {order.refundPendingMinor > 0
          ? ` (${formatMoney(order.refundPendingMinor, currency)} of earlier refunds still awaits confirmation)`
          : ''}
      </p>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 font-medium">Refund by</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${id}-mode`}
            value="lines"
            checked={mode === 'lines'}
            onChange={() => setMode('lines')}
            disabled={refundable.length === 0}
          />
          Items
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${id}-mode`}
            value="amount"
            checked={mode === 'amount'}
            onChange={() => setMode('amount')}
          />
          An amount
        </label>
      </fieldset>

      {mode === 'lines' ? (
        <fieldset aria-describedby={errors.lines ? `${id}-lines-error` : undefined} className="space-y-2">
          <legend className="text-sm font-medium">Items to refund</legend>
          <ul className="divide-y divide-stone-line border-y border-stone-line text-sm">
            {refundable.map((l) => {
              const left = l.quantity - l.refundedQuantity;
              const fieldId = `${id}-line-${l.id}`;
              return (
                <li key={l.id} className="flex items-center justify-between gap-4 py-2">
                  <label htmlFor={fieldId}>
                    {l.title}
                    {l.colour || l.size ? ` (${variantLabel(l.colour, l.size)})` : ''}
                    <span className="block text-xs text-muted" data-testid="refund-line-refundable">
                      {l.chargedTotalMinor === l.unitPriceMinor * l.quantity
                        ? `${formatMoney(l.unitPriceMinor, currency)} each`
                        : `charged ${formatMoney(l.chargedTotalMinor, currency)} for ${l.quantity} after discounts`}{' '}
                      · {left} of {l.quantity} refundable, up to {formatMoney(l.refundableMinor, currency)}
                    </span>
                  </label>
                  <select
                    id={fieldId}
                    value={quantities[l.id] ?? 0}
                    onChange={(e) => setQuantities((q) => ({ ...q, [l.id]: Number(e.target.value) }))}
                    aria-invalid={errors.lines ? true : undefined}
                    className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
                  >
                    {Array.from({ length: left + 1 }, (_, n) => n).map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </li>
              );
            })}
          </ul>
          {errors.lines ? (
            <p id={`${id}-lines-error`} className="text-xs text-red-700">
              {errors.lines}
            </p>
          ) : null}
          <p className="text-sm" aria-live="polite">
            Amount to refund: <strong data-testid="refund-amount">{formatMoney(linesMinor, currency)}</strong>
          </p>
        </fieldset>
      ) : (
        <TextField
          label={`Amount (${currency.toUpperCase()})`}
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          onChange={(e) => setAmountText(e.target.value)}
          error={errors.amount}
          hint={`At most ${maximum}.`}
          required
        />
      )}

      <TextAreaField
        label="Reason (optional)"
        value={reason}
        onChange={setReason}
        error={errors.reason}
        rows={2}
      />
      {manual ? (
        <>
          <TextField
            label="Paid back via"
            list={`${id}-paid-via`}
            autoComplete="off"
            maxLength={100}
            value={paidVia}
            onChange={(e) => setPaidVia(e.target.value)}
            error={errors.paidVia}
            hint="Such as Cash, Bank transfer or JazzCash/Easypaisa."
            required
          />
          <datalist id={`${id}-paid-via`}>
            {PAID_VIA_SUGGESTIONS.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
          <TextAreaField
            label="Note (optional): a reference, who paid it back"
            value={note}
            onChange={setNote}
            error={errors.note}
            rows={2}
          />
        </>
      ) : null}
      {failure ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      ) : errors.lines || errors.amount || errors.reason || errors.paidVia || errors.note ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          Close
        </Button>
        <Button type="submit" disabled={refund.isPending}>
          {refund.isPending
            ? 'Refunding…'
            : amountMinor && amountMinor > 0
              ? `${manual ? 'Record refund of' : 'Refund'} ${formatMoney(amountMinor, currency)}`
              : manual
                ? 'Record refund'
                : 'Refund'}
        </Button>
      </div>
    </form>
  );
}
