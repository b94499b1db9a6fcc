import { formatMoney } from '@shared/money';
import { type CustomerReturnView, RETURN_REASON_LABEL } from '@shared/returns';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { trpc } from '../../../lib/trpc';
import { serverFieldErrors } from '../../../lib/use-zod-form';
import { DayText } from '../local-time';
import { cancellable, type ReturnOptionsView, type ReturnRequest, returnStatusText } from './return-choices';
import { ReturnForm } from './return-form';

/** A return as orderPage.view lists it (its `returns`). */
export type ShopperReturn = CustomerReturnView;

const panel = 'mt-8 rounded-2xl border border-stone-line bg-white/70 p-6';

/** A refusal in the shopper's words: a "not found" means the page's link no longer opens this order. */
function refusalOf(error: { message: string; data?: { code?: string } | null } | null): string | null {
  if (!error) return null;
  if (error.data?.code === 'NOT_FOUND') return 'This return can no longer be changed from this page.';
  if (error.data?.code === 'TOO_MANY_REQUESTS') return 'Too many return requests: please contact the shop.';
  // A choice the server's own check refused: its words for the first one, not "Invalid input".
  const fieldMessage = Object.values(serverFieldErrors(error.data))[0];
  return fieldMessage ?? error.message;
}

/**
 * "Return or exchange" on the shopper's order page (issue 43): the form while the order may be returned
 * (or why not, and whom to ask), then each return's progress with Cancel while the shop has not received it.
 */
export function ReturnSection({
  id,
  token,
  currency,
  returns,
  contact,
}: {
  id: string;
  token: string;
  currency: string;
  returns: ShopperReturn[];
  /** How to reach the shop, as the page's own contact section says it. */
  contact: string;
}) {
  const utils = trpc.useUtils();
  const options = trpc.orderPage.returnOptions.useQuery(
    { orderId: id, token },
    { enabled: id !== '' && token !== '', staleTime: 30_000, retry: false },
  );
  const [said, setSaid] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const status = useRef<HTMLParagraphElement>(null);
  const headingId = useId();
  const refresh = () =>
    Promise.all([
      utils.orderPage.view.invalidate({ id, token }),
      utils.orderPage.returnOptions.invalidate({ orderId: id, token }),
    ]);
  const request = trpc.orderPage.requestReturn.useMutation({ onSettled: () => void refresh() });
  const cancel = trpc.orderPage.cancelReturn.useMutation({ onSettled: () => void refresh() });

  // The form closes (or empties) after a request: focus goes to what the page said about it.
  useEffect(() => {
    if (said) status.current?.focus();
  }, [said]);

  const onSubmit = (input: ReturnRequest) => {
    setSaid(null);
    request.mutate(
      { orderId: id, token, ...input },
      {
        onSuccess: () => {
          setFormKey((k) => k + 1);
          setSaid('Your request is sent. We have emailed you what happens next; its progress is below.');
        },
      },
    );
  };
  const onCancel = (returnId: string) => {
    setSaid(null);
    cancel.mutate(
      { orderId: id, token, returnId },
      { onSuccess: () => setSaid('Your return is cancelled.') },
    );
  };

  const data = options.data;
  if (!data && returns.length === 0 && !options.isError) return null;
  return (
    <section aria-labelledby={headingId} className={`${panel} print:hidden`} data-testid="order-returns">
      <h2 id={headingId} className="font-serif text-xl">
        Return or exchange
      </h2>
      {options.isError ? (
        <p className="mt-2 text-sm">We could not load the return options: {options.error.message}</p>
      ) : data && !data.eligible ? (
        <p className="mt-2 text-sm" data-testid="return-not-eligible">
          {data.reasonIfNot ?? 'This order cannot be returned online.'} {contact}
        </p>
      ) : data ? (
        <>
          <Policy options={data} />
          <ReturnForm
            key={formKey}
            options={data}
            pending={request.isPending}
            refusal={refusalOf(request.error)}
            onSubmit={onSubmit}
          />
        </>
      ) : null}
      <p
        ref={status}
        role="status"
        tabIndex={-1}
        className="mt-3 font-medium text-emerald-800 empty:hidden"
        data-testid="return-said"
      >
        {said}
      </p>
      {returns.length > 0 ? (
        <ReturnProgress
          returns={returns}
          currency={currency}
          onCancel={onCancel}
          cancelling={cancel.isPending ? (cancel.variables?.returnId ?? null) : null}
          refusal={refusalOf(cancel.error)}
        />
      ) : null}
    </section>
  );
}

function Policy({ options }: { options: ReturnOptionsView }) {
  const { settings, windowEndsAt } = options;
  return (
    <div className="mt-2 space-y-2 text-sm">
      {windowEndsAt ? (
        <p>
          You can ask for a return until <DayText iso={windowEndsAt} />.
        </p>
      ) : null}
      <p>
        {settings.postagePaidBy === 'shop'
          ? 'The shop pays the return postage.'
          : 'You pay the postage to send the items back.'}
      </p>
      {settings.instructions ? (
        <div>
          <h3 className="font-medium">How to send it back</h3>
          <p className="mt-1 whitespace-pre-line" data-testid="return-instructions">
            {settings.instructions}
          </p>
        </div>
      ) : null}
    </div>
  );
}

function ReturnProgress({
  returns,
  currency,
  onCancel,
  cancelling,
  refusal,
}: {
  returns: ShopperReturn[];
  currency: string;
  onCancel: (returnId: string) => void;
  cancelling: string | null;
  refusal: string | null;
}) {
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
          <li
            key={r.id}
            className="rounded-xl border border-stone-line p-4 text-sm"
            data-testid="return-item"
          >
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
                </li>
              ))}
            </ul>
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
            {cancellable(r.status) ? (
              <Button
                variant="secondary"
                className="mt-3"
                disabled={cancelling === r.id}
                onClick={() => onCancel(r.id)}
              >
                {cancelling === r.id ? 'Cancelling…' : 'Cancel this return'}
                <span className="sr-only">
                  {' '}
                  asked <DayText iso={r.createdAt} />
                </span>
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
