import { useEffect, useRef } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { paths } from '../../lib/paths';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

/**
 * /order/:id/confirm?token=…: the link in the cash-on-delivery email. Opening it confirms nothing: mail
 * scanners and link previews open every link in a message, so only the shopper's press of the button does
 * (orderPage.confirmCashOnDelivery, with the link's token). Nothing about the order is shown to the holder
 * of this link before it is confirmed: it is not the order page's key.
 */
export function ConfirmOrderPage() {
  usePageTitle('Confirm your order', { noindex: true });
  const { id = '' } = useParams<{ id: string }>();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const confirm = trpc.orderPage.confirmCashOnDelivery.useMutation();
  const result = useRef<HTMLDivElement>(null);
  // The button goes once the order is confirmed: focus moves to the answer, which is then read out.
  useEffect(() => {
    if (confirm.isSuccess) result.current?.focus();
  }, [confirm.isSuccess]);

  const refusal =
    confirm.error?.data?.code === 'NOT_FOUND'
      ? 'This confirmation link is not valid. Check that you opened the whole link from your email.'
      : (confirm.error?.message ?? null);

  const incomplete = id === '' || token === '';
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="font-serif text-3xl">Confirm your order</h1>
      {incomplete ? (
        <p role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-800">
          This confirmation link is incomplete. Open the whole link from your email.
        </p>
      ) : confirm.isSuccess ? (
        <div ref={result} tabIndex={-1} role="status" className="mt-6 rounded-xl bg-emerald-50 p-4">
          <p className="font-serif text-2xl text-emerald-900">Confirmed</p>
          <p className="mt-2 text-emerald-900">
            Order #{confirm.data.number} {confirm.data.outcome === 'already_confirmed' ? 'was already' : 'is'}{' '}
            confirmed; the link in your first email shows its progress.
          </p>
        </div>
      ) : (
        <p className="mt-4 text-muted">
          Your order is paid in cash on delivery. Confirm it and we will prepare it for delivery.
        </p>
      )}
      {refusal ? (
        <p role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-800">
          {refusal}
        </p>
      ) : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {incomplete || confirm.isSuccess ? null : (
          <Button onClick={() => confirm.mutate({ id, token })} disabled={confirm.isPending}>
            {confirm.isPending ? 'Confirming…' : 'Confirm my order'}
          </Button>
        )}
        <Link href={paths.home()} className={buttonClass('secondary')}>
          Continue Shopping
        </Link>
      </div>
    </div>
  );
}
