import { formatMoney, minorToMajorString } from '@shared/money';
import {
  recordCashCollectedInput,
  recordTransferInput,
  returnedToOriginInput,
} from '@shared/payment-methods';
import { type FormEvent, useId, useState } from 'react';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { type Refusal, useZodForm } from '../../../lib/use-zod-form';
import { Failure, FormButtons, failureMessage, useFocusOnOpen } from './action-panel';
import type { OrderDetail } from './use-orders';
import {
  useConfirmCashOnDelivery,
  useLiftPhoneRefusal,
  useRecordCashCollected,
  useRecordTransfer,
  useReturnedToOrigin,
} from './use-payment-steps';

type FormProps = { order: OrderDetail; onCancel: () => void; onDone: (message: string) => void };

/** The server's refusal in words, or nothing when the form's own fields already say what is wrong. */
function refusalText(result: Refusal): string | null {
  return result.message === 'Invalid input' ? null : result.message;
}

/**
 * A step form's submit: its values checked and sent, then the panel closed with what was done, or the
 * server's refusal said and the first wrong field focused.
 */
function useStepSubmit<V>(
  save: (send: (values: V) => Promise<unknown>) => Promise<'invalid' | 'saved' | Refusal>,
  send: (values: V) => Promise<unknown>,
  onDone: FormProps['onDone'],
  done: string,
) {
  const [failure, setFailure] = useState<string | null>(null);
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const result = await save(send);
    if (result === 'saved') return onDone(done);
    if (result !== 'invalid') setFailure(refusalText(result));
    focusFirstError();
  };
  return { ref, failure, onSubmit: (e: FormEvent) => void submit(e) };
}

/** The owner called the shopper, who said the order is theirs: confirmed by hand (decision 0038). */
export function ConfirmCodForm({ order, onCancel, onDone }: FormProps) {
  const confirm = useConfirmCashOnDelivery();
  const [failure, setFailure] = useState<string | null>(null);
  const ref = useFocusOnOpen<HTMLFormElement>();
  const noteId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    confirm.mutate(
      { id: order.id },
      {
        onSuccess: (result) =>
          onDone(
            result.outcome === 'already_confirmed' ? 'The order was confirmed already.' : 'Order confirmed.',
          ),
        onError: (err) => setFailure(failureMessage(err)),
      },
    );
  };
  return (
    <form ref={ref} onSubmit={submit} noValidate aria-label="Confirm the order" className="space-y-3">
      <p id={noteId} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
        Confirm only after calling the shopper
        {order.phone ? (
          <>
            {' '}
            on <a href={`tel:${order.phone}`}>{order.phone}</a>
          </>
        ) : null}{' '}
        and hearing that the order is theirs. Its stock is then committed and it can be shipped.
      </p>
      <Failure message={failure} fieldsWrong={false} />
      <FormButtons
        onCancel={onCancel}
        pending={confirm.isPending}
        label="Confirm the order"
        pendingLabel="Confirming…"
        describedBy={noteId}
      />
    </form>
  );
}

const collectFields = recordCashCollectedInput.omit({ id: true });

/** The courier handed over the cash: the amount, prefilled with the order's total. */
export function CollectCashForm({ order, onCancel, onDone }: FormProps) {
  const { currency } = order;
  const total = order.totalMinor ?? 0;
  const form = useZodForm(collectFields, { amount: minorToMajorString(total, currency) });
  const collect = useRecordCashCollected();
  const { ref, failure, onSubmit } = useStepSubmit(
    form.save,
    (v) => collect.mutateAsync({ id: order.id, ...v }),
    onDone,
    'Cash collected recorded.',
  );
  return (
    <form ref={ref} onSubmit={onSubmit} noValidate aria-label="Record cash collected" className="space-y-3">
      <TextField
        label={`Amount collected (${currency.toUpperCase()})`}
        inputMode="decimal"
        autoComplete="off"
        value={form.values.amount}
        onChange={(e) => form.set('amount', e.target.value)}
        error={form.error('amount')}
        hint={`The order’s total is ${formatMoney(total, currency, { decimals: 'always' })}. Recording it marks the order delivered and paid.`}
        required
      />
      <Failure message={failure} fieldsWrong={form.hasErrors} />
      <FormButtons
        onCancel={onCancel}
        pending={collect.isPending}
        label="Record cash collected"
        pendingLabel="Saving…"
      />
    </form>
  );
}

const returnedFields = returnedToOriginInput.omit({ id: true });

/** The parcel came back unpaid: why, and whether its goods go back on the shelf. */
export function ReturnedForm({ order, onCancel, onDone }: FormProps) {
  const form = useZodForm(returnedFields, { reason: '', restock: true });
  const returned = useReturnedToOrigin();
  const { ref, failure, onSubmit } = useStepSubmit(
    form.save,
    (v) => returned.mutateAsync({ id: order.id, ...v }),
    onDone,
    'Recorded as returned to origin.',
  );
  const noteId = useId();
  return (
    <form ref={ref} onSubmit={onSubmit} noValidate aria-label="Returned to origin" className="space-y-3">
      <p id={noteId} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
        The order ends unpaid and cancelled; this cannot be undone. Returns count against the shopper’s phone.
      </p>
      <TextAreaField
        label="Why it came back"
        value={form.values.reason}
        onChange={(reason) => form.set('reason', reason)}
        error={form.error('reason')}
        rows={2}
      />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={form.values.restock}
          onChange={(e) => form.set('restock', e.target.checked)}
          className="h-4 w-4 accent-maroon"
        />
        Put the stock back
      </label>
      <Failure message={failure} fieldsWrong={form.hasErrors} />
      <FormButtons
        onCancel={onCancel}
        pending={returned.isPending}
        label="Record the return"
        pendingLabel="Saving…"
        describedBy={noteId}
      />
    </form>
  );
}

/** Today as the date field reads it (YYYY-MM-DD), in the admin's own calendar. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const transferFields = recordTransferInput.omit({ id: true });

/** The transfer arrived in the shop's account: its reference and the day it came. */
export function TransferForm({ order, onCancel, onDone }: FormProps) {
  const form = useZodForm(transferFields, { reference: '', receivedOn: today() });
  const record = useRecordTransfer();
  const { ref, failure, onSubmit } = useStepSubmit(
    form.save,
    (v) => record.mutateAsync({ id: order.id, ...v }),
    onDone,
    'Transfer recorded; the order is paid.',
  );
  return (
    <form
      ref={ref}
      onSubmit={onSubmit}
      noValidate
      aria-label="Record transfer received"
      className="space-y-3"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Transfer reference"
          autoComplete="off"
          value={form.values.reference}
          onChange={(e) => form.set('reference', e.target.value)}
          error={form.error('reference')}
          hint={`Shoppers are asked to quote the order number, ${order.number}.`}
          required
        />
        <TextField
          label="Received on"
          type="date"
          value={form.values.receivedOn}
          onChange={(e) => form.set('receivedOn', e.target.value)}
          error={form.error('receivedOn')}
          required
        />
      </div>
      <Failure message={failure} fieldsWrong={form.hasErrors} />
      <FormButtons
        onCancel={onCancel}
        pending={record.isPending}
        label="Record transfer"
        pendingLabel="Saving…"
      />
    </form>
  );
}

/** The owner trusts the phone again after its returns to origin (decision 0038). */
export function LiftRefusalForm({ order, onCancel, onDone }: FormProps) {
  const lift = useLiftPhoneRefusal();
  const [failure, setFailure] = useState<string | null>(null);
  const ref = useFocusOnOpen<HTMLFormElement>();
  const noteId = useId();
  const phone = order.phone ?? '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    lift.mutate(
      { phone },
      {
        onSuccess: () => onDone(`Cash-on-delivery orders from ${phone} are taken again.`),
        onError: (err) => setFailure(failureMessage(err)),
      },
    );
  };
  return (
    <form ref={ref} onSubmit={submit} noValidate aria-label="Lift the refusal" className="space-y-3">
      <p id={noteId} className="text-sm">
        A phone whose last cash-on-delivery orders came back is refused at checkout. Lifting the refusal takes
        orders from {phone} again until its next returns.
      </p>
      <Failure message={failure} fieldsWrong={false} />
      <FormButtons
        onCancel={onCancel}
        pending={lift.isPending}
        label="Lift the refusal"
        pendingLabel="Lifting…"
        describedBy={noteId}
      />
    </form>
  );
}
