import { formatMoney } from '@shared/money';
import { closeExchangeInput, declineReturnInput } from '@shared/return-admin-input';
import { type FormEvent, useId, useState } from 'react';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { serverFieldErrors, useZodForm } from '../../../lib/use-zod-form';
import { Failure, FormButtons, failureMessage, useFocusOnOpen } from '../orders/action-panel';
import { checkDifferencePayment } from './difference-check';
import { checkReceive, MAX_CONDITION } from './receive-check';
import {
  type ReturnDetail,
  useCloseExchange,
  useCloseRefund,
  useDeclineReturn,
  useReceiveReturn,
} from './use-returns';

export type StepFormProps = { detail: ReturnDetail; onCancel: () => void; onDone: (message: string) => void };

/** The server's words, or nothing when its field errors already sit by their fields. */
const refusalText = (message: string) => (message === 'Invalid input' ? null : message);

const declineFields = declineReturnInput.omit({ id: true });

/** Declined with a reason the shopper reads on their page; a held replacement goes back on the shelf. */
export function DeclineForm({ detail, onCancel, onDone }: StepFormProps) {
  const form = useZodForm(declineFields, { reason: '' });
  const decline = useDeclineReturn();
  const [failure, setFailure] = useState<string | null>(null);
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const result = await form.save((v) => decline.mutateAsync({ id: detail.id, ...v }));
    if (result === 'saved') return onDone('Return declined.');
    if (result !== 'invalid') setFailure(refusalText(result.message));
    focusFirstError();
  };
  return (
    <form ref={ref} onSubmit={(e) => void submit(e)} noValidate aria-label="Decline" className="space-y-3">
      <TextAreaField
        label="Why (the shopper sees this)"
        value={form.values.reason}
        onChange={(reason) => form.set('reason', reason)}
        error={form.error('reason')}
        rows={2}
      />
      <Failure message={failure} fieldsWrong={form.hasErrors} />
      <FormButtons
        onCancel={onCancel}
        pending={decline.isPending}
        label="Decline the return"
        pendingLabel="Saving…"
      />
    </form>
  );
}

/** The parcel is in: its condition, and per line how many units go back on the shelf (all, by default). */
export function ReceiveForm({ detail, onCancel, onDone }: StepFormProps) {
  const [condition, setCondition] = useState('');
  const [restock, setRestock] = useState<Record<number, string>>(() =>
    Object.fromEntries(detail.lines.map((l) => [l.lineId, String(l.quantity)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const receive = useReceiveReturn();
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const checked = checkReceive({ condition, restock }, detail.lines);
    setErrors(checked.errors);
    if (!checked.input) return focusFirstError();
    receive.mutate(
      { id: detail.id, ...checked.input },
      {
        onSuccess: (done) =>
          onDone(
            `Return received; ${done.restockedUnits} unit${done.restockedUnits === 1 ? '' : 's'} back in stock.`,
          ),
        onError: (err) => {
          const fields = serverFieldErrors(err.data);
          setErrors(fields);
          setFailure(Object.keys(fields).length > 0 ? null : failureMessage(err));
          focusFirstError();
        },
      },
    );
  };
  return (
    <form ref={ref} onSubmit={submit} noValidate aria-label="Receive" className="space-y-3">
      <TextAreaField
        label={`Condition of the items (optional, up to ${MAX_CONDITION} characters)`}
        value={condition}
        onChange={setCondition}
        error={errors.condition}
        rows={2}
      />
      <fieldset className="space-y-2 rounded-xl border border-stone-line p-3">
        <legend className="px-1 text-sm font-medium">Put back in stock</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {detail.lines.map((l) => (
            <TextField
              key={l.lineId}
              label={`${l.title}${l.colour ? `, ${l.colour}` : ''}${l.size ? `, size ${l.size}` : ''} (of ${l.quantity})`}
              type="number"
              inputMode="numeric"
              min={0}
              max={l.quantity}
              step={1}
              value={restock[l.lineId] ?? ''}
              onChange={(e) => setRestock((r) => ({ ...r, [l.lineId]: e.target.value }))}
              error={errors[`restock.${l.lineId}`] ?? errors.restock}
            />
          ))}
        </div>
        <p className="text-xs text-muted">0 keeps a damaged unit off the shelf.</p>
      </fieldset>
      <Failure message={failure} fieldsWrong={Object.keys(errors).length > 0} />
      <FormButtons
        onCancel={onCancel}
        pending={receive.isPending}
        label="Mark as received"
        pendingLabel="Saving…"
      />
    </form>
  );
}

// Carrier and tracking number; the difference's refund fields are checked on their own (difference-check).
const exchangeFields = closeExchangeInput.pick({ carrier: true, trackingNumber: true });

/** The held replacement leaves with a carrier and tracking number; the return closes. */
export function CloseExchangeForm({ detail, onCancel, onDone }: StepFormProps) {
  const form = useZodForm(exchangeFields, { carrier: '', trackingNumber: '' });
  const close = useCloseExchange();
  const [failure, setFailure] = useState<string | null>(null);
  // A difference to give back goes back as the exchange closes: a manual order's by hand, said how.
  const refunding = detail.difference?.status === 'to_refund';
  const byHand = refunding && detail.order.paymentMethod !== 'card';
  const [paidVia, setPaidVia] = useState('');
  const [note, setNote] = useState('');
  const [moneyErrors, setMoneyErrors] = useState<Record<string, string>>({});
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const noteId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const money = checkDifferencePayment({ paidVia, note }, byHand);
    setMoneyErrors(money.errors);
    if (!money.input) {
      form.validate();
      return focusFirstError();
    }
    const extra = refunding ? money.input : {};
    const result = await form.save((v) => close.mutateAsync({ id: detail.id, ...v, ...extra }));
    if (result === 'saved') return onDone('Exchange shipped; the return is closed.');
    if (result !== 'invalid') {
      setMoneyErrors(result.fieldErrors);
      setFailure(refusalText(result.message));
    }
    focusFirstError();
  };
  const differenceNote = closeDifferenceNote(detail);
  return (
    <form
      ref={ref}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label="Ship the exchange"
      aria-describedby={differenceNote ? noteId : undefined}
      className="space-y-3"
    >
      {differenceNote ? (
        <p id={noteId} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {differenceNote}
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Carrier"
          value={form.values.carrier}
          onChange={(e) => form.set('carrier', e.target.value)}
          error={form.error('carrier')}
          required
        />
        <TextField
          label="Tracking number"
          value={form.values.trackingNumber}
          onChange={(e) => form.set('trackingNumber', e.target.value)}
          error={form.error('trackingNumber')}
          required
        />
      </div>
      {byHand ? (
        <TextField
          label="Difference paid back via (e.g. bank transfer, cash)"
          value={paidVia}
          maxLength={100}
          onChange={(e) => setPaidVia(e.target.value)}
          error={moneyErrors.paidVia}
          required
        />
      ) : null}
      {refunding ? (
        <TextAreaField
          label="Refund note (optional)"
          value={note}
          onChange={setNote}
          error={moneyErrors.note}
          rows={2}
        />
      ) : null}
      <Failure message={failure} fieldsWrong={form.hasErrors || Object.keys(moneyErrors).length > 0} />
      <FormButtons
        onCancel={onCancel}
        pending={close.isPending}
        label="Ship and close"
        pendingLabel="Saving…"
      />
    </form>
  );
}

/** What closing does with the price difference, if there is one to speak of. */
function closeDifferenceNote(detail: ReturnDetail): string | null {
  const d = detail.difference;
  if (!d) return null;
  const amount =
    d.amountMinor === null ? 'The price difference' : formatMoney(Math.abs(d.amountMinor), detail.currency);
  switch (d.status) {
    case 'due':
      if (detail.order.paymentMethod === 'cash_on_delivery')
        return `${amount}: the courier collects it with the replacement (the packing slip says so).`;
      return detail.order.paymentMethod === 'card'
        ? `${amount} is not paid yet: the shopper pays it on their order page (or record it as paid).`
        : `${amount} is not paid yet: record it as paid once it arrives.`;
    case 'collect_on_delivery':
      return `${amount}: the courier collects it with the replacement (the packing slip says so).`;
    case 'to_refund':
      return `${amount} goes back to the shopper as the exchange closes (the owner closes it).`;
    default:
      return null;
  }
}

/**
 * The money goes back through the order's refund path; a cash-on-delivery or bank-transfer order's refund is
 * paid by hand, so the owner says how.
 */
export function CloseRefundForm({ detail, onCancel, onDone }: StepFormProps) {
  const byHand = detail.order.paymentMethod !== 'card';
  const [paidVia, setPaidVia] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const refund = useCloseRefund();
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const noteId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (byHand && paidVia.trim() === '') {
      setErrors({ paidVia: 'Say how the money went back' });
      return focusFirstError();
    }
    setErrors({});
    refund.mutate(
      { id: detail.id, ...(byHand ? { paidVia } : {}), ...(note.trim() ? { note } : {}) },
      {
        onSuccess: () => onDone('Refunded; the return is closed.'),
        onError: (err) => {
          const fields = serverFieldErrors(err.data);
          setErrors(fields);
          setFailure(Object.keys(fields).length > 0 ? null : failureMessage(err));
          focusFirstError();
        },
      },
    );
  };
  return (
    <form ref={ref} onSubmit={submit} noValidate aria-label="Refund" className="space-y-3">
      <p id={noteId} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
        Refunds what was paid for these lines (after discounts), never more.
        {byHand ? ' This order was not paid by card: pay the shopper back yourself, then record how.' : ''}
      </p>
      {byHand ? (
        <TextField
          label="Paid back via (e.g. bank transfer, cash)"
          value={paidVia}
          maxLength={100}
          onChange={(e) => setPaidVia(e.target.value)}
          error={errors.paidVia}
          required
        />
      ) : null}
      <TextAreaField label="Note (optional)" value={note} onChange={setNote} error={errors.note} rows={2} />
      <Failure message={failure} fieldsWrong={Object.keys(errors).length > 0} />
      <FormButtons
        onCancel={onCancel}
        pending={refund.isPending}
        label="Refund and close"
        pendingLabel="Refunding…"
      />
    </form>
  );
}
