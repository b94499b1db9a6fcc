import { formatMoney } from '@shared/money';
import type { CustomerOrderView } from '@shared/orders';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { trpc } from '../../lib/trpc';
import { DeadlineText } from './local-time';

/**
 * What happens next for an order paid in cash at the door or by bank transfer (decision 0038): the card's
 * order page needs none of this, its payment is done before the page exists.
 */
export function OfflinePayment({
  order,
  id,
  token,
}: {
  order: CustomerOrderView;
  id: string;
  token: string;
}) {
  if (order.paymentMethod === 'cash_on_delivery')
    return <CashOnDelivery order={order} id={id} token={token} />;
  if (order.paymentMethod === 'bank_transfer') return <BankTransfer order={order} />;
  return null;
}

const panel = 'mt-8 rounded-2xl border border-maroon/30 bg-white/70 p-6';

function CashOnDelivery({ order, id, token }: { order: CustomerOrderView; id: string; token: string }) {
  const utils = trpc.useUtils();
  const confirm = trpc.orderPage.confirmCashOnDelivery.useMutation({
    // Confirmed or refused, the page shows the order as it now is (a deadline that passed expires it).
    onSettled: () => utils.orderPage.view.invalidate({ id, token }),
  });
  const [said, setSaid] = useState<string | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  // The button is gone once the order is confirmed: focus goes to what the page said, not to the page's top.
  useEffect(() => {
    if (said) status.current?.focus();
  }, [said]);
  const total = formatMoney(order.totalMinor, order.currency);
  const fee = order.methodFeeMinor > 0 ? formatMoney(order.methodFeeMinor, order.currency) : null;
  const refusal =
    confirm.error?.data?.code === 'NOT_FOUND'
      ? 'This order can no longer be confirmed from this page.'
      : (confirm.error?.message ?? null);

  const onConfirm = () => {
    setSaid(null);
    confirm.mutate(
      { id, token },
      {
        onSuccess: (answer) =>
          setSaid(
            answer.outcome === 'already_confirmed'
              ? 'Your order was already confirmed.'
              : 'Thank you, your order is confirmed.',
          ),
      },
    );
  };

  return (
    <section aria-labelledby="order-payment-heading" className={panel} data-testid="order-payment">
      <h2 id="order-payment-heading" className="font-serif text-xl">
        Cash on delivery
      </h2>
      {order.step === 'awaiting_confirmation' ? (
        <>
          <p className="mt-2">
            Please confirm your order
            {order.confirmBy ? (
              <>
                {' '}
                by <DeadlineText iso={order.confirmBy} />
              </>
            ) : null}
            . An order not confirmed in time is cancelled and its items go back on sale.
          </p>
          <p className="mt-2 text-sm">
            Once it is confirmed we prepare it, and you pay {total} in cash when it is delivered.
          </p>
          <Button className="mt-4 print:hidden" onClick={onConfirm} disabled={confirm.isPending}>
            {confirm.isPending ? 'Confirming…' : 'Confirm my order'}
          </Button>
        </>
      ) : order.step === 'confirmed' || order.step === 'shipped' || order.step === 'delivered' ? (
        <p className="mt-2" data-testid="cash-due">
          Your order is confirmed. Please pay <strong>{total}</strong> in cash at the door
          {fee ? `, including the ${fee} cash on delivery fee` : ''}.
        </p>
      ) : order.step === 'collected' ? (
        <p className="mt-2">You paid {total} in cash on delivery. Thank you.</p>
      ) : order.step === 'returned' ? (
        <p className="mt-2">The parcel came back to us undelivered, so this order is cancelled.</p>
      ) : order.step === 'expired' ? (
        <p className="mt-2">
          This order was not confirmed in time, so it has been cancelled. You owe nothing.
        </p>
      ) : null}
      {/* Always in the page, so what lands in it is announced. */}
      <p ref={status} role="status" tabIndex={-1} className="mt-3 font-medium text-emerald-800 empty:hidden">
        {said}
      </p>
      {refusal ? (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
    </section>
  );
}

function BankTransfer({ order }: { order: CustomerOrderView }) {
  const total = formatMoney(order.totalMinor, order.currency);
  return (
    <section aria-labelledby="order-payment-heading" className={panel} data-testid="order-payment">
      <h2 id="order-payment-heading" className="font-serif text-xl">
        Bank transfer
      </h2>
      {order.step === 'awaiting_transfer' ? (
        <>
          <p className="mt-2">
            Please transfer <strong>{total}</strong> to the account below
            {order.paymentReference ? ', quoting the reference so we can match your payment' : ''}.
          </p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted">Amount</dt>
            <dd data-testid="transfer-amount">{total}</dd>
            {order.paymentReference ? (
              <>
                <dt className="text-muted">Reference</dt>
                <dd className="font-mono" data-testid="transfer-reference">
                  {order.paymentReference}
                </dd>
              </>
            ) : null}
            {order.bankDetails ? (
              <>
                <dt className="text-muted">Account</dt>
                <dd className="whitespace-pre-line" data-testid="bank-details">
                  {order.bankDetails}
                </dd>
              </>
            ) : null}
          </dl>
          {order.confirmBy ? (
            <p className="mt-3 text-sm">
              We hold your items until <DeadlineText iso={order.confirmBy} />. If the transfer has not arrived
              by then, the order is cancelled and they go back on sale.
            </p>
          ) : null}
        </>
      ) : order.step === 'expired' ? (
        <p className="mt-2">
          The transfer did not arrive in time, so this order has been cancelled. If you did send it, please
          contact us below.
        </p>
      ) : order.step === 'cancelled' ? null : (
        <p className="mt-2">Your transfer of {total} has arrived. Thank you.</p>
      )}
    </section>
  );
}
