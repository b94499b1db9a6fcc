import { shipOrderInput } from '@shared/order-admin-input';
import { type FormEvent, useId, useState } from 'react';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { serverFieldErrors, useZodForm } from '../../../lib/use-zod-form';
import { useIsOwner } from '../owner-only';
import { ActionPanel, failureMessage, useFocusOnOpen } from './action-panel';
import {
  CollectCashForm,
  ConfirmCodForm,
  LiftRefusalForm,
  ReturnedForm,
  TransferForm,
} from './payment-step-forms';
import { type OrderDetail, useCancelOrder, useMarkDelivered, useShipOrder } from './use-orders';

type StepAction = 'confirm' | 'collect' | 'returned' | 'transfer' | 'lift';
type Panel = 'ship' | 'cancel' | StepAction | null;

/** The steps of a cash-on-delivery or bank-transfer order (decision 0038), with their buttons' words. */
const STEP_ACTIONS: ReadonlyArray<{ id: StepAction; button: string; title: string }> = [
  { id: 'confirm', button: 'Confirm (after calling)', title: 'Confirm the order' },
  { id: 'collect', button: 'Record cash collected', title: 'Record cash collected' },
  { id: 'returned', button: 'Returned to origin', title: 'Returned to origin' },
  { id: 'transfer', button: 'Record transfer received', title: 'Record transfer received' },
  { id: 'lift', button: 'Lift the refusal', title: 'Lift the phone’s refusal' },
];

/**
 * Which steps the order can take now: the server's `can` where it answers one (it leaves staff without the
 * owner's transfer), else the order's step; the server checks each again (one conditional update). Lifting
 * a phone's refusal is the owner's (decision 0030), offered while the server says the phone is refused.
 */
function stepActions(order: OrderDetail, isOwner: boolean): Set<StepAction> {
  const actions = new Set<StepAction>();
  const cod = order.paymentMethod === 'cash_on_delivery';
  if (cod && order.step === 'awaiting_confirmation') actions.add('confirm');
  if (order.can.recordCashCollected) actions.add('collect');
  if (order.can.returnedToOrigin) actions.add('returned');
  if (order.can.recordTransfer) actions.add('transfer');
  if (cod && isOwner && order.phoneRefused) actions.add('lift');
  return actions;
}

const STEP_FORM = {
  confirm: ConfirmCodForm,
  collect: CollectCashForm,
  returned: ReturnedForm,
  transfer: TransferForm,
  lift: LiftRefusalForm,
} as const;

/**
 * What can be done with the goods now, as the server says (order.can): each button opens its small form in
 * place, one at a time. Refunds have their own section below. `onDone` tells the dialog what happened, so
 * it can say so and move focus.
 */
export function OrderActions({ order, onDone }: { order: OrderDetail; onDone: (message: string) => void }) {
  const [open, setOpen] = useState<Panel>(null);
  const { can } = order;
  const deliver = useMarkDelivered();
  const [deliverError, setDeliverError] = useState<string | null>(null);
  const panelId = useId();
  const steps = stepActions(order, useIsOwner());
  const openStep = STEP_ACTIONS.find((a) => a.id === open && steps.has(a.id));

  if (!can.ship && !can.markDelivered && !can.cancel && steps.size === 0) {
    return <p className="text-muted">Nothing to do with the goods of this order now.</p>;
  }

  const toggle = (panel: Exclude<Panel, null>) => setOpen((p) => (p === panel ? null : panel));
  const done = (message: string) => {
    setOpen(null);
    onDone(message);
  };

  const markDelivered = () => {
    setDeliverError(null);
    deliver.mutate(
      { id: order.id },
      {
        onSuccess: () => done('Marked as delivered.'),
        onError: (e) => setDeliverError(failureMessage(e)),
      },
    );
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2">
        {STEP_ACTIONS.filter((a) => steps.has(a.id)).map((a) => (
          <Button
            key={a.id}
            variant={open === a.id ? 'primary' : 'secondary'}
            aria-expanded={open === a.id}
            aria-controls={`${panelId}-${a.id}`}
            onClick={() => toggle(a.id)}
          >
            {a.button}
          </Button>
        ))}
        {can.ship ? (
          <Button
            variant={open === 'ship' ? 'primary' : 'secondary'}
            aria-expanded={open === 'ship'}
            aria-controls={`${panelId}-ship`}
            onClick={() => toggle('ship')}
          >
            Mark as shipped
          </Button>
        ) : null}
        {can.markDelivered ? (
          <Button variant="secondary" onClick={markDelivered} disabled={deliver.isPending}>
            {deliver.isPending ? 'Saving…' : 'Mark as delivered'}
          </Button>
        ) : null}
        {can.cancel ? (
          <Button
            variant={open === 'cancel' ? 'primary' : 'secondary'}
            aria-expanded={open === 'cancel'}
            aria-controls={`${panelId}-cancel`}
            onClick={() => toggle('cancel')}
          >
            Cancel order
          </Button>
        ) : null}
      </div>
      {deliverError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {deliverError}
        </p>
      ) : null}
      {openStep ? (
        <ActionPanel id={`${panelId}-${openStep.id}`} title={openStep.title}>
          <StepForm action={openStep.id} order={order} onCancel={() => setOpen(null)} onDone={done} />
        </ActionPanel>
      ) : null}
      {open === 'ship' ? (
        <ActionPanel id={`${panelId}-ship`} title="Mark as shipped">
          <ShipForm orderId={order.id} onCancel={() => setOpen(null)} onDone={done} />
        </ActionPanel>
      ) : null}
      {open === 'cancel' ? (
        <ActionPanel id={`${panelId}-cancel`} title="Cancel order">
          <CancelForm orderId={order.id} onCancel={() => setOpen(null)} onDone={done} />
        </ActionPanel>
      ) : null}
    </div>
  );
}

function StepForm({
  action,
  ...props
}: {
  action: StepAction;
  order: OrderDetail;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const Form = STEP_FORM[action];
  return <Form {...props} />;
}

const shipFields = shipOrderInput.omit({ id: true });

function ShipForm({
  orderId,
  onCancel,
  onDone,
}: {
  orderId: string;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const form = useZodForm(shipFields, { carrier: '', trackingNumber: '', trackingUrl: '' });
  const { values, set, error } = form;
  const ship = useShipOrder();
  const [failure, setFailure] = useState<string | null>(null);
  const ref = useFocusOnOpen<HTMLFormElement>();
  const focusFirstError = useFocusFirstInvalid(ref);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const result = await form.save((v) => ship.mutateAsync({ id: orderId, ...v }));
    if (result === 'saved') {
      onDone('Marked as shipped.');
      return;
    }
    if (result !== 'invalid' && result.message !== 'Invalid input') setFailure(result.message);
    focusFirstError();
  };

  return (
    <form ref={ref} onSubmit={(e) => void submit(e)} noValidate aria-label="Shipment" className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Carrier"
          value={values.carrier}
          onChange={(e) => set('carrier', e.target.value)}
          error={error('carrier')}
          required
        />
        <TextField
          label="Tracking number"
          value={values.trackingNumber}
          onChange={(e) => set('trackingNumber', e.target.value)}
          error={error('trackingNumber')}
          required
        />
      </div>
      <TextField
        label="Tracking link (optional)"
        type="url"
        placeholder="https://"
        value={values.trackingUrl}
        onChange={(e) => set('trackingUrl', e.target.value)}
        error={error('trackingUrl')}
        hint="Left empty, the store links UPS, USPS, FedEx, DHL, Royal Mail, Canada Post, Australia Post and TCS numbers to their tracking pages."
      />
      {failure ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      ) : form.hasErrors ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          Close
        </Button>
        <Button type="submit" disabled={ship.isPending}>
          {ship.isPending ? 'Saving…' : 'Save shipment'}
        </Button>
      </div>
    </form>
  );
}

function CancelForm({
  orderId,
  onCancel,
  onDone,
}: {
  orderId: string;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const cancel = useCancelOrder();
  const ref = useFocusOnOpen<HTMLFormElement>();
  const noteId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    setReasonError(undefined);
    cancel.mutate(
      { id: orderId, reason },
      {
        onSuccess: () => onDone('Order cancelled.'),
        onError: (err) => {
          const fields = serverFieldErrors(err.data);
          setReasonError(fields.reason);
          setFailure(fields.reason ? null : failureMessage(err));
        },
      },
    );
  };

  return (
    <form ref={ref} onSubmit={submit} noValidate aria-label="Cancel the order" className="space-y-3">
      <p id={noteId} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
        Cancelling does not refund the payment: refund it below if needed.
      </p>
      <TextAreaField
        label="Reason (optional)"
        value={reason}
        onChange={setReason}
        error={reasonError}
        rows={2}
      />
      {failure ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          Keep the order
        </Button>
        <Button type="submit" disabled={cancel.isPending} aria-describedby={noteId}>
          {cancel.isPending ? 'Cancelling…' : 'Confirm cancellation'}
        </Button>
      </div>
    </form>
  );
}
