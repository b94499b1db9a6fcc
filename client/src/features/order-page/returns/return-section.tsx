import type { PaymentMethodName } from '@shared/payment-names';
import type { CustomerReturnView } from '@shared/returns';
import { useEffect, useId, useRef, useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { serverFieldErrors } from '../../../lib/use-zod-form';
import { DayText } from '../local-time';
import type { ReturnOptionsView, ReturnRequest } from './return-choices';
import { ReturnForm } from './return-form';
import { ReturnProgress } from './return-progress';

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
  paymentMethod,
  returns,
  contact,
}: {
  id: string;
  token: string;
  currency: string;
  paymentMethod: PaymentMethodName;
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
  const pay = trpc.orderPage.payReturnDifference.useMutation({
    // Stripe's page, or the demo's /testpayment: a page load either way, away from this one.
    onSuccess: ({ url }) => window.location.assign(url),
    onError: () => void refresh(),
  });

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
  const onPay = (returnId: string) => {
    setSaid(null);
    pay.mutate({ orderId: id, token, returnId });
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
            currency={currency}
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
          paymentMethod={paymentMethod}
          onCancel={onCancel}
          cancelling={cancel.isPending ? (cancel.variables?.returnId ?? null) : null}
          // The page is left for the payment's: the button stays busy until it goes.
          onPay={onPay}
          paying={pay.isPending || pay.isSuccess ? (pay.variables?.returnId ?? null) : null}
          refusal={refusalOf(cancel.error) ?? refusalOf(pay.error)}
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
