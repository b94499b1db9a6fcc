import { formatMoney } from '@shared/money';
import type { PaymentMethodName } from '@shared/payment-names';
import { type CustomerReturnView, RETURN_REASON_LABEL } from '@shared/returns';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { DayText } from '../local-time';
import { CancelReturnDialog } from './cancel-return-dialog';
import { cancellable, returnStatusText } from './return-choices';
import { lineDifferenceText, returnDifferenceText } from './return-difference';

// As DayText says a day once the page has hydrated (the dialog only ever opens after that).
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** Each return's progress: its lines, tracking, refund, price difference, and what the shopper may still do. */
export function ReturnProgress({
  returns,
  currency,
  paymentMethod,
  onCancel,
  cancelling,
  onPay,
  paying,
  refusal,
}: {
  returns: CustomerReturnView[];
  currency: string;
  paymentMethod: PaymentMethodName;
  onCancel: (returnId: string) => void;
  cancelling: string | null;
  onPay: (returnId: string) => void;
  paying: string | null;
  refusal: string | null;
}) {
  const [confirming, setConfirming] = useState<CustomerReturnView | null>(null);
  return (
    <div className="mt-6">
      <h3 className="font-serif text-lg">Your returns</h3>
      {refusal ? (
        <p role="alert" className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
      <ul className="mt-2 space-y-4">
        {returns.map((r) => (
          <ReturnItem
            key={r.id}
            item={r}
            currency={currency}
            paymentMethod={paymentMethod}
            cancelling={cancelling === r.id}
            paying={paying === r.id}
            onCancel={() => setConfirming(r)}
            onPay={() => onPay(r.id)}
          />
        ))}
      </ul>
      {confirming ? (
        <CancelReturnDialog
          summary={`${confirming.lines.map((l) => `${l.quantity} × ${l.title}`).join(', ')}, asked ${day.format(new Date(confirming.createdAt))}.`}
          onClose={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            onCancel(confirming.id);
          }}
        />
      ) : null}
    </div>
  );
}

function ReturnItem({
  item: r,
  currency,
  paymentMethod,
  cancelling,
  paying,
  onCancel,
  onPay,
}: {
  item: CustomerReturnView;
  currency: string;
  paymentMethod: PaymentMethodName;
  cancelling: boolean;
  paying: boolean;
  onCancel: () => void;
  onPay: () => void;
}) {
  const differenceId = useId();
  const difference = r.difference
    ? returnDifferenceText(r.difference, { returnStatus: r.status, paymentMethod, currency })
    : null;
  return (
    <li className="rounded-xl border border-stone-line p-4 text-sm" data-testid="return-item">
      <p className="font-medium" data-testid="return-status">
        {returnStatusText(r.status, r.resolution)}
      </p>
      <p className="text-muted">
        Asked <DayText iso={r.createdAt} /> · {RETURN_REASON_LABEL[r.reason]} ·{' '}
        {r.resolution === 'exchange' ? 'Exchange' : 'Refund'}
      </p>
      <ul className="mt-2 list-disc pl-5">
        {r.lines.map((l) => (
          <li key={l.lineId}>
            {l.quantity} × {l.title}
            {l.exchangeSize
              ? `, for size ${l.exchangeSize}${l.exchangeColour ? ` in ${l.exchangeColour}` : ''}`
              : ''}
            {lineDifferenceText(l.differenceMinor, currency)}
          </li>
        ))}
      </ul>
      {difference?.summary ? (
        <div className="mt-2" id={differenceId} data-testid="return-difference">
          <p className="font-medium">{difference.summary}</p>
          {difference.hint ? <p className="text-muted">{difference.hint}</p> : null}
        </div>
      ) : null}
      {r.exchangeTracking ? (
        <p className="mt-2">
          Replacement sent with {r.exchangeTracking.carrier}, tracking number{' '}
          <span className="font-mono">{r.exchangeTracking.number}</span>.
        </p>
      ) : null}
      {r.refundedMinor !== null && r.refundedMinor > 0 ? (
        <p className="mt-2" data-testid="return-refunded">
          Refunded {formatMoney(r.refundedMinor, currency)}.
        </p>
      ) : null}
      {r.declineReason ? <p className="mt-2">The shop said: {r.declineReason}</p> : null}
      <div className="mt-3 flex flex-wrap gap-2 empty:hidden">
        {r.difference?.canPay ? (
          <Button disabled={paying} onClick={onPay} aria-describedby={differenceId}>
            {paying ? 'Opening the payment…' : 'Pay the difference'}
          </Button>
        ) : null}
        {cancellable(r.status) ? (
          <Button variant="secondary" disabled={cancelling} onClick={onCancel}>
            {cancelling ? 'Cancelling…' : 'Cancel this return'}
            <span className="sr-only">
              {' '}
              asked <DayText iso={r.createdAt} />
            </span>
          </Button>
        ) : null}
      </div>
    </li>
  );
}
