import { formatMoney } from '@shared/money';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { safeOrderReturnTo } from './return-to-check';

/**
 * Demo payment mode, for an exchange's price difference (a `demo_rd_` session): what Stripe's page would
 * show (the order, the amount) and a Pay button. Nothing is asked for: the shopper is known from the order.
 * Paid, it goes back to the order page it came from (`return_to`, only ever an order page of this site).
 */
export function DemoDifferencePayment({
  sessionId,
  returnTo,
}: {
  sessionId: string;
  returnTo: string | null;
}) {
  const [, navigate] = useLocation();
  const info = trpc.checkout.demoDifference.useQuery({ sessionId }, { retry: 1 });
  const complete = trpc.checkout.completeDemoDifference.useMutation();
  const [paid, setPaid] = useState(false);
  const said = useRef<HTMLParagraphElement>(null);
  const target = safeOrderReturnTo(returnTo);

  if (info.isError) {
    return (
      <p role="alert" className="mt-6 text-center text-sm text-red-800">
        Could not load this payment: {info.error.message}
      </p>
    );
  }
  const data = info.data;
  if (!data) return <div className="skeleton mt-8 h-40 rounded-2xl" aria-hidden="true" />;
  const amount = formatMoney(data.amountMinor, data.currency);

  const pay = () =>
    complete.mutate(
      { sessionId },
      {
        onSuccess: () => {
          toast.success('Test payment completed successfully!');
          if (target) navigate(target, { replace: true });
          else {
            setPaid(true);
            requestAnimationFrame(() => said.current?.focus());
          }
        },
      },
    );

  return (
    <section
      className="mt-8 rounded-2xl border border-stone-line bg-white/70 p-5 text-sm"
      aria-labelledby="demo-difference-heading"
      data-testid="demo-difference"
    >
      <h2 id="demo-difference-heading" className="font-serif text-lg">
        {data.title}
      </h2>
      <dl className="mt-3 flex justify-between border-t border-stone-line pt-3 text-base font-semibold">
        <dt>Amount</dt>
        <dd data-testid="demo-difference-amount">{amount}</dd>
      </dl>
      {complete.isError ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-red-800">
          {complete.error.message}
        </p>
      ) : null}
      {paid ? (
        <p ref={said} tabIndex={-1} role="status" className="mt-4 font-medium text-emerald-800">
          Paid. Open your order from the link in your emails to see it.
        </p>
      ) : (
        <Button className="mt-5 w-full" disabled={complete.isPending || complete.isSuccess} onClick={pay}>
          {complete.isPending ? 'Paying…' : `Pay ${amount}`}
        </Button>
      )}
    </section>
  );
}
