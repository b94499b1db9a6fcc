import { formatMoney } from '@shared/money';
import { ORDER_STATUS_LABEL } from '@shared/orders';
import { useEffect } from 'react';
import { Link, useSearch } from 'wouter';
import { OrderLines } from '../../components/order-lines';
import { buttonClass } from '../../components/ui/button';
import { cartCode } from '../../lib/cart/cart-code';
import { cart } from '../../lib/cart/cart-store';
import { paths } from '../../lib/paths';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

/** /checkout/success: the paid order, fetched by the session id Stripe (or the demo) sent back. */
export function PaymentSuccessPage() {
  return <PaymentSuccess back="Continue Shopping" />;
}

/** /success, where payment links return: the same page, whose link back reads 'Return to Shop'. */
export function SuccessPage() {
  return <PaymentSuccess back="Return to Shop" />;
}

function PaymentSuccess({ back }: { back: 'Continue Shopping' | 'Return to Shop' }) {
  usePageTitle('Payment Successful');
  const sessionId = new URLSearchParams(useSearch()).get('session_id') ?? '';
  const order = trpc.checkout.order.useQuery({ sessionId }, { enabled: sessionId !== '', retry: 2 });

  useEffect(() => {
    cart.clear();
    // The code went with this order; the next cart starts without it.
    cartCode.remove();
  }, []);

  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <div className="text-center">
        <h1 className="font-serif text-4xl text-ink">Payment Successful!</h1>
        <p className="mt-4 text-muted">
          Thank you for your purchase. You will receive an email confirmation shortly.
        </p>
      </div>
      {order.data ? (
        <section
          className="mt-10 rounded-2xl border border-stone-line bg-white/70 p-6"
          aria-labelledby="order-heading"
        >
          <h2 id="order-heading" className="font-serif text-xl" data-testid="order-number">
            Order #{order.data.number}
          </h2>
          <p className="mt-1 text-sm text-muted">
            {ORDER_STATUS_LABEL[order.data.status]}
            {order.data.paymentMode === 'demo' ? ' · demo payment, no money moved' : ''}
          </p>
          <OrderLines lines={order.data.lines} currency={order.data.currency} className="mt-4 text-sm" />
          <p className="mt-3 flex justify-between border-t border-stone-line pt-3 font-semibold">
            <span>Total</span>
            <span data-testid="order-total">
              {formatMoney(order.data.totalMinor ?? order.data.subtotalMinor, order.data.currency)}
            </span>
          </p>
          {order.data.orderPagePath ? (
            <div className="mt-6 rounded-xl bg-sand/70 p-4 text-center">
              <p className="text-sm">
                A confirmation email is on its way, with a link to this order's page. You can follow the order
                there: when it ships, its tracking appears on it.
              </p>
              <Link href={order.data.orderPagePath} className={buttonClass('primary', 'mt-4')}>
                View your order
              </Link>
            </div>
          ) : null}
        </section>
      ) : order.isError ? (
        <p className="mt-8 text-center text-sm text-muted">
          We could not load the order details: {order.error.message}
        </p>
      ) : sessionId ? (
        // About the height of a one- or two-line order with its link to the order page (narrower screens
        // wrap its text onto more lines), so the button under it stays where it is drawn.
        <div className="skeleton mt-10 h-[25rem] rounded-2xl sm:h-[21rem]" aria-hidden="true" />
      ) : null}
      <div className="mt-10 text-center">
        <Link href={paths.home()} className={buttonClass('primary')}>
          {back}
        </Link>
      </div>
    </div>
  );
}

export function CheckoutCancelPage() {
  usePageTitle('Payment Cancelled');
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="font-serif text-4xl">Payment Cancelled</h1>
      <p className="mt-4 text-muted">Your payment was cancelled. No charges were made.</p>
      <div className="mt-8 flex justify-center gap-3">
        <Link href={paths.checkout()} className={buttonClass('primary')}>
          Try Again
        </Link>
        <Link href={paths.home()} className={buttonClass('secondary')}>
          Return to Shop
        </Link>
      </div>
    </div>
  );
}

export function CanceledPage() {
  usePageTitle('Payment Canceled');
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="font-serif text-4xl">Payment Canceled</h1>
      <p className="mt-4 text-muted">Your payment was canceled. No charges were made to your account.</p>
      <div className="mt-8">
        <Link href={paths.home()} className={buttonClass('secondary')}>
          Return to Shop
        </Link>
      </div>
    </div>
  );
}
