import { formatMoney } from '@shared/money';
import { DIFFERENCE_STATUS_LABEL, type DifferenceStatus, RETURN_STATUS_LABEL } from '@shared/returns';
import { type ReactNode, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { paths } from '../../../lib/paths';
import { ActionPanel, failureMessage } from '../orders/action-panel';
import { RecordDifferencePaidForm, RefundDifferenceForm } from './difference-forms';
import { RETURN_STATUS_STYLE, reasonLabel, signedDifferenceText } from './return-labels';
import {
  CloseExchangeForm,
  CloseRefundForm,
  DeclineForm,
  ReceiveForm,
  type StepFormProps,
} from './return-step-forms';
import { type ReturnDetail, useApproveReturn, useReturn } from './use-returns';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });
const at = (iso: string) => dateTime.format(new Date(iso));

type FormAction =
  | 'decline'
  | 'receive'
  | 'closeExchange'
  | 'closeRefund'
  | 'recordDifferencePaid'
  | 'refundDifference';

const FORM_ACTIONS: ReadonlyArray<{
  id: FormAction;
  button: string;
  title: string;
  Form: (props: StepFormProps) => ReactNode;
}> = [
  { id: 'receive', button: 'Mark as received', title: 'The parcel is in', Form: ReceiveForm },
  {
    id: 'closeExchange',
    button: 'Ship the exchange',
    title: 'Ship the replacement',
    Form: CloseExchangeForm,
  },
  { id: 'closeRefund', button: 'Refund', title: 'Refund and close', Form: CloseRefundForm },
  {
    id: 'recordDifferencePaid',
    button: 'Record difference paid',
    title: 'The price difference is paid',
    Form: RecordDifferencePaidForm,
  },
  {
    id: 'refundDifference',
    button: 'Refund the difference',
    title: 'Give the price difference back',
    Form: RefundDifferenceForm,
  },
  { id: 'decline', button: 'Decline', title: 'Decline the return', Form: DeclineForm },
];

/** One return: the order, the lines and what may be done next, as the server says (detail.can). */
export function ReturnDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const detail = useReturn(id);
  const summary = useRef<HTMLParagraphElement>(null);
  const [said, setSaid] = useState('');
  // After a step its form closes: focus goes to the return's status, now the new one, and the status line says
  // what was done (toasts sit outside the modal, where the page is inert).
  const onDone = (message: string) => {
    setSaid(message);
    requestAnimationFrame(() => summary.current?.focus());
  };
  return (
    <Modal
      title={detail.data ? `Return for order #${detail.data.order.number}` : 'Return'}
      onClose={onClose}
      wide
    >
      <p role="status" className="sr-only">
        {said}
      </p>
      {detail.data ? (
        <ReturnBody detail={detail.data} summaryRef={summary} onDone={onDone} />
      ) : detail.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load the return: {detail.error.message}
        </p>
      ) : (
        <div className="skeleton mt-4 h-40 rounded" aria-hidden="true" />
      )}
    </Modal>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="font-serif text-lg">
        {title}
      </h3>
      {children}
    </section>
  );
}

function ReturnBody({
  detail,
  summaryRef,
  onDone,
}: {
  detail: ReturnDetail;
  summaryRef: React.RefObject<HTMLParagraphElement | null>;
  onDone: (message: string) => void;
}) {
  const { order } = detail;
  // Staff see the difference's status but no amounts (the server sends them none).
  const linePrices = detail.difference !== null && detail.lines.some((l) => l.differenceMinor !== null);
  return (
    <div className="space-y-6 text-sm">
      <div className="space-y-1">
        <p ref={summaryRef} tabIndex={-1} className="text-base outline-none focus-visible:outline-2">
          <span
            className={`rounded-full px-2 py-0.5 font-medium ${RETURN_STATUS_STYLE[detail.status]}`}
            data-testid="return-dialog-status"
          >
            {RETURN_STATUS_LABEL[detail.status]}
          </span>{' '}
          · asked {at(detail.createdAt)}
          {detail.approvedAt ? ` · approved ${at(detail.approvedAt)}` : ''}
          {detail.receivedAt ? ` · received ${at(detail.receivedAt)}` : ''}
          {detail.closedAt ? ` · closed ${at(detail.closedAt)}` : ''}
        </p>
        <p>
          {order.customerName ?? 'No name'}
          {order.customerEmail ? (
            <>
              {' · '}
              <a className="text-maroon underline" href={`mailto:${order.customerEmail}`}>
                {order.customerEmail}
              </a>
            </>
          ) : null}
        </p>
        {detail.resolution === 'exchange' ? (
          <div className="flex flex-wrap gap-2 pt-2">
            <a
              href={paths.adminReturnPackingSlip(detail.id)}
              target="_blank"
              rel="noopener"
              className="inline-flex items-center rounded-full border border-ink/80 px-3 py-1 text-xs font-medium hover:bg-ink hover:text-ivory"
            >
              Packing slip<span className="sr-only"> for the replacement (opens in a new tab)</span>
            </a>
          </div>
        ) : null}
      </div>

      <Section title="Why">
        <p>
          <span className="font-medium">{reasonLabel(detail.reason)}</span>
          {detail.reasonText ? `: ${detail.reasonText}` : ''}
        </p>
        <p>Wants {detail.resolution === 'exchange' ? 'an exchange' : 'a refund'}.</p>
      </Section>

      <Section title="Items">
        <table className="w-full text-left" aria-label="Returned items">
          <thead>
            <tr className="border-b border-stone-line text-muted">
              <th scope="col" className="py-1 pr-3 font-medium">
                Item
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Units
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                Replacement
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Held
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Restocked
              </th>
              {linePrices ? (
                <th scope="col" className="py-1 pl-3 text-right font-medium">
                  Difference
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {detail.lines.map((l) => (
              <tr key={l.lineId} className="border-b border-stone-line/60">
                <td className="py-1 pr-3">
                  {l.title}
                  {l.colour ? `, ${l.colour}` : ''}
                  {l.size ? `, size ${l.size}` : ''}
                </td>
                <td className="py-1 pr-3 text-right">{l.quantity}</td>
                <td className="py-1 pr-3">
                  {l.exchangeSize
                    ? `Size ${l.exchangeSize}${l.exchangeColour ? `, ${l.exchangeColour}` : ''}`
                    : '—'}
                </td>
                <td className="py-1 pr-3 text-right">{l.held}</td>
                <td className="py-1 text-right">{l.restocked}</td>
                {linePrices ? (
                  <td className="py-1 pl-3 text-right">
                    {l.differenceMinor === null || l.differenceMinor === 0
                      ? '—'
                      : `${l.differenceMinor > 0 ? '+' : '−'}${formatMoney(Math.abs(l.differenceMinor), detail.currency)}`}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {detail.conditionNote ? <p>Condition: {detail.conditionNote}</p> : null}
        {detail.declineReason ? <p>Declined: {detail.declineReason}</p> : null}
        {detail.exchangeTracking ? (
          <p>
            Replacement shipped with {detail.exchangeTracking.carrier},{' '}
            <span className="font-mono">{detail.exchangeTracking.number}</span>.
          </p>
        ) : null}
        {detail.refundedMinor !== null ? (
          <p>Refunded {formatMoney(detail.refundedMinor, detail.currency)}.</p>
        ) : null}
      </Section>

      {detail.difference ? (
        <Section title="Price difference">
          <DifferenceSummary detail={detail} difference={detail.difference} />
        </Section>
      ) : null}

      <Section title="Actions">
        <ReturnActions detail={detail} onDone={onDone} />
      </Section>
    </div>
  );
}

/** Why a difference stands as it does on an exchange that ended unshipped (decision 0039). */
function endedNote(status: ReturnDetail['status'], difference: DifferenceStatus): string {
  if (status !== 'declined' && status !== 'cancelled') return '';
  if (difference === 'due') return ' (nothing to pay now: the exchange ended)';
  if (difference === 'to_refund') return ' (paid, and the exchange ended)';
  return '';
}

/** What the exchange's price difference is and where it stands; the amount for the owner only. */
function DifferenceSummary({
  detail,
  difference,
}: {
  detail: ReturnDetail;
  difference: NonNullable<ReturnDetail['difference']>;
}) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="return-difference">
      {difference.amountMinor !== null ? (
        <>
          <dt className="text-muted">Amount</dt>
          <dd>{signedDifferenceText(difference.amountMinor, detail.currency)}</dd>
        </>
      ) : null}
      <dt className="text-muted">Status</dt>
      <dd data-testid="return-difference-status">
        {DIFFERENCE_STATUS_LABEL[difference.status]}
        {endedNote(detail.status, difference.status)}
      </dd>
      {difference.paidVia ? (
        <>
          <dt className="text-muted">Via</dt>
          <dd>{difference.paidVia}</dd>
        </>
      ) : null}
      {difference.paidAt ? (
        <>
          <dt className="text-muted">When</dt>
          <dd>{at(difference.paidAt)}</dd>
        </>
      ) : null}
      {difference.refundId ? (
        <>
          <dt className="text-muted">Refund</dt>
          <dd className="break-all font-mono text-xs">{difference.refundId}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** The buttons the server allows now; each form opens in place, one at a time. */
function ReturnActions({ detail, onDone }: { detail: ReturnDetail; onDone: (message: string) => void }) {
  const [open, setOpen] = useState<FormAction | null>(null);
  const approve = useApproveReturn();
  const [approveError, setApproveError] = useState<string | null>(null);
  const panelId = useId();
  const { can } = detail;
  const actions = FORM_ACTIONS.filter((a) => can[a.id]);
  const opened = actions.find((a) => a.id === open);
  if (!can.approve && actions.length === 0) {
    return (
      <p className="text-muted">
        {detail.status === 'received' && detail.resolution === 'refund'
          ? 'The owner refunds this return.'
          : 'Nothing to do with this return now.'}
      </p>
    );
  }
  const done = (message: string) => {
    setOpen(null);
    onDone(message);
  };
  const onApprove = () => {
    setApproveError(null);
    approve.mutate(
      { id: detail.id },
      { onSuccess: () => done('Return approved.'), onError: (e) => setApproveError(failureMessage(e)) },
    );
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2">
        {can.approve ? (
          <Button onClick={onApprove} disabled={approve.isPending}>
            {approve.isPending ? 'Approving…' : 'Approve'}
          </Button>
        ) : null}
        {actions.map((a) => (
          <Button
            key={a.id}
            variant={open === a.id ? 'primary' : 'secondary'}
            aria-expanded={open === a.id}
            aria-controls={`${panelId}-${a.id}`}
            onClick={() => setOpen((o) => (o === a.id ? null : a.id))}
          >
            {a.button}
          </Button>
        ))}
      </div>
      {approveError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {approveError}
        </p>
      ) : null}
      {opened ? (
        <ActionPanel id={`${panelId}-${opened.id}`} title={opened.title}>
          <opened.Form detail={detail} onCancel={() => setOpen(null)} onDone={done} />
        </ActionPanel>
      ) : null}
    </div>
  );
}
