import { formatMoney } from '@shared/money';
import { type FormEvent, useState } from 'react';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { serverFieldErrors } from '../../../lib/use-zod-form';
import { Failure, FormButtons, failureMessage, useFocusOnOpen } from '../orders/action-panel';
import { checkDifferencePayment } from './difference-check';
import type { StepFormProps } from './return-step-forms';
import { useRecordDifferencePaid, useRefundDifference } from './use-returns';

/** The difference in the owner's words; staff see no amount (the server sends none). */
const amountText = (detail: StepFormProps['detail']) => {
  const minor = detail.difference?.amountMinor;
  return minor === null || minor === undefined
    ? 'the price difference'
    : formatMoney(Math.abs(minor), detail.currency);
};

/**
 * The shopper paid the difference another way than the order page (cash, a bank transfer, a card payment
 * taken by hand): the owner says how, and it is recorded as paid.
 */
export function RecordDifferencePaidForm({ detail, onCancel, onDone }: StepFormProps) {
  const [paidVia, setPaidVia] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const record = useRecordDifferencePaid();
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const checked = checkDifferencePayment({ paidVia, note }, true, 'payment');
    setErrors(checked.errors);
    if (!checked.input) return focusFirstError();
    record.mutate(
      {
        id: detail.id,
        paidVia: checked.input.paidVia ?? '',
        ...(checked.input.note ? { note: checked.input.note } : {}),
      },
      {
        onSuccess: () => onDone('Price difference recorded as paid.'),
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
    <form ref={ref} onSubmit={submit} noValidate aria-label="Record difference paid" className="space-y-3">
      <p className="text-sm">Record that the shopper paid {amountText(detail)} outside the order page.</p>
      <TextField
        label="Paid via (e.g. cash on delivery, bank transfer)"
        value={paidVia}
        maxLength={100}
        onChange={(e) => setPaidVia(e.target.value)}
        error={errors.paidVia}
        required
      />
      <TextAreaField label="Note (optional)" value={note} onChange={setNote} error={errors.note} rows={2} />
      <Failure message={failure} fieldsWrong={Object.keys(errors).length > 0} />
      <FormButtons
        onCancel={onCancel}
        pending={record.isPending}
        label="Record difference paid"
        pendingLabel="Saving…"
      />
    </form>
  );
}

/**
 * A difference the shop owes: a closed exchange's still to give back (the provider refused it at close,
 * say), or one the shopper paid on an exchange then declined or cancelled. The server says where it goes:
 * to the card that paid it, or by hand (paid back, then recorded how).
 */
export function RefundDifferenceForm({ detail, onCancel, onDone }: StepFormProps) {
  const byHand = detail.difference?.refundByHand ?? detail.order.paymentMethod !== 'card';
  const [paidVia, setPaidVia] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const refund = useRefundDifference();
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const checked = checkDifferencePayment({ paidVia, note }, byHand);
    setErrors(checked.errors);
    if (!checked.input) return focusFirstError();
    refund.mutate(
      { id: detail.id, ...checked.input },
      {
        onSuccess: () => onDone('Price difference refunded.'),
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
    <form ref={ref} onSubmit={submit} noValidate aria-label="Refund the difference" className="space-y-3">
      <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
        Gives back {amountText(detail)} through the order's refunds.
        {byHand
          ? `${(detail.difference?.amountMinor ?? 0) > 0 ? ' The difference was paid by hand' : ' This order was not paid by card'}: pay the shopper back yourself, then record how.`
          : ''}
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
        label="Refund the difference"
        pendingLabel="Refunding…"
      />
    </form>
  );
}
