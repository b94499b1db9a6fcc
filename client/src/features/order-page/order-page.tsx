import { formatMoney } from '@shared/money';
import type { CustomerOrderView } from '@shared/orders';
import { Check } from 'lucide-react';
import { Link, useParams, useSearch } from 'wouter';
import { OrderLines } from '../../components/order-lines';
import { PostalAddress } from '../../components/postal-address';
import { Button, buttonClass } from '../../components/ui/button';
import { paths } from '../../lib/paths';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { DayText } from './local-time';
import { OfflinePayment } from './offline-payment';
import { DifferencePaidNotice } from './returns/difference-paid-notice';
import { ReturnSection } from './returns/return-section';

/**
 * By its code, not its class: a "not found" the server rendered the page with reaches the browser's cache as
 * plain data ({ data: { code } }), and the first render must say what the server's said.
 */
const isNotFound = (error: { data?: { code?: string } | null } | null) => error?.data?.code === 'NOT_FOUND';

/** /order/:id?token=…: the shopper's own order, opened from the link in their emails or the success page. */
export function OrderPage() {
  const { id = '' } = useParams<{ id: string }>();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const order = trpc.orderPage.view.useQuery(
    { id, token },
    {
      enabled: id !== '' && token !== '',
      // A wrong link stays wrong: only a failure on the way is worth one more try.
      retry: (count, error) => !isNotFound(error) && count < 1,
      // The server rendered the page with its answer: a "not found" it sent is not asked again on load.
      retryOnMount: false,
      staleTime: 30_000,
    },
  );
  const missing = id === '' || token === '' || isNotFound(order.error);
  usePageTitle(order.data ? `Order #${order.data.number}` : missing ? 'Order not found' : 'Your order', {
    noindex: true,
  });

  if (missing) return <OrderNotFound />;
  if (order.isError) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16">
        <h1 className="font-serif text-3xl">Your order</h1>
        <div role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-800">
          We could not load your order: {order.error.message}
        </div>
        <Button variant="secondary" className="mt-6 print:hidden" onClick={() => void order.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!order.data) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16" aria-busy="true">
        <p className="sr-only">Loading your order…</p>
        <div className="skeleton h-10 w-48 rounded" aria-hidden="true" />
        <div className="skeleton mt-8 h-40 rounded-2xl" aria-hidden="true" />
      </div>
    );
  }
  return <OrderDetails order={order.data} id={id} token={token} />;
}

/** The one answer to a wrong id, a wrong key or an unpaid order: nothing about any order. */
function OrderNotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="font-serif text-3xl">Order not found</h1>
      <p className="mt-4 text-muted">
        Check that the address is the whole link from your order confirmation email.
      </p>
      <Link href={paths.home()} className={buttonClass('primary', 'mt-8 print:hidden')}>
        Go Home
      </Link>
    </div>
  );
}

const STEPS = ['Ordered', 'Paid', 'Shipped', 'Delivered'] as const;
/** Cash on delivery is paid at the door: its second step is the shopper's confirmation. */
const COD_STEPS = ['Ordered', 'Confirmed', 'Shipped', 'Delivered'] as const;

function currentStep(order: CustomerOrderView): number {
  if (order.fulfilment === 'delivered') return 3;
  if (order.fulfilment === 'shipped') return 2;
  if (order.paymentMethod === 'cash_on_delivery') return order.step === 'confirmed' ? 1 : 0;
  return order.status === 'paid' ? 1 : 0;
}

/** Where the order is on its way, each step said as done, current or still to come. */
function Progress({ order }: { order: CustomerOrderView }) {
  const current = currentStep(order);
  const steps = order.paymentMethod === 'cash_on_delivery' ? COD_STEPS : STEPS;
  return (
    <ol aria-label="Order progress" className="mt-6 grid grid-cols-4 gap-2 text-center text-sm">
      {steps.map((step, i) => (
        <li
          key={step}
          aria-current={i === current ? 'step' : undefined}
          className={`flex flex-col items-center gap-2 border-t-4 pt-3 ${i <= current ? 'border-maroon text-ink' : 'border-stone-line text-muted'} ${i === current ? 'font-semibold' : ''}`}
        >
          <span
            aria-hidden="true"
            className={`flex h-7 w-7 items-center justify-center rounded-full ${i <= current ? 'bg-maroon text-ivory' : 'border border-stone-line bg-white'}`}
          >
            {i < current ? <Check className="h-4 w-4" /> : i + 1}
          </span>
          <span>
            {step}
            <span className="sr-only">
              {i < current ? ' (done)' : i === current ? ' (current)' : ' (to come)'}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}

function OrderDetails({ order, id, token }: { order: CustomerOrderView; id: string; token: string }) {
  const { currency, store, shipment } = order;
  const cancelled = order.fulfilment === 'cancelled';
  const card = order.paymentMethod === 'card';
  // The cash-on-delivery fee is its own line; what is left of the adjustments is shipping and the like.
  const feeMinor = card ? 0 : order.methodFeeMinor;
  const adjustmentsMinor = order.adjustmentsMinor - feeMinor;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 print:py-0">
      <h1 className="font-serif text-4xl">Order #{order.number}</h1>
      <p className="mt-2 text-muted">
        Placed <DayText iso={order.createdAt} /> ·{' '}
        <span data-testid="order-stage">{card ? order.stage : order.stepLabel}</span>
      </p>

      <OfflinePayment order={order} id={id} token={token} />
      <DifferencePaidNotice returns={order.returns} id={id} token={token} />

      {cancelled ? (
        <div className="mt-6 rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
          <p className="font-medium">
            This order was cancelled
            {order.cancelledAt ? (
              <>
                {' '}
                on <DayText iso={order.cancelledAt} />
              </>
            ) : null}
            .
          </p>
          <p className="mt-1 text-sm">
            {order.refundedMinor > 0
              ? `${formatMoney(order.refundedMinor, currency)} has been refunded.`
              : 'If you paid for it, the store will tell you about your refund.'}
          </p>
        </div>
      ) : order.status === 'expired' ? null : (
        <section aria-labelledby="order-progress-heading">
          <h2 id="order-progress-heading" className="sr-only">
            Progress
          </h2>
          <Progress order={order} />
          {order.deliveredAt ? (
            <p className="mt-3 text-sm text-muted">
              Delivered <DayText iso={order.deliveredAt} />.
            </p>
          ) : null}
        </section>
      )}

      {shipment ? (
        <section
          aria-labelledby="order-tracking-heading"
          className="mt-8 rounded-2xl border border-stone-line bg-white/70 p-6"
        >
          <h2 id="order-tracking-heading" className="font-serif text-xl">
            Tracking
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted">Shipped</dt>
            <dd>
              <DayText iso={shipment.shippedAt} />
            </dd>
            <dt className="text-muted">Carrier</dt>
            <dd>{shipment.carrier}</dd>
            <dt className="text-muted">Tracking number</dt>
            <dd className="font-mono">{shipment.trackingNumber}</dd>
          </dl>
          {shipment.trackingUrl ? (
            <a
              href={shipment.trackingUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClass('secondary', 'mt-4 print:hidden')}
            >
              Track your parcel
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          ) : null}
        </section>
      ) : null}

      <section
        aria-labelledby="order-items-heading"
        className="mt-8 rounded-2xl border border-stone-line bg-white/70 p-6"
      >
        <h2 id="order-items-heading" className="font-serif text-xl">
          Items
        </h2>
        <OrderLines lines={order.lines} currency={currency} className="mt-3 text-sm" />
        <dl className="mt-3 space-y-1 border-t border-stone-line pt-3 text-sm">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd>{formatMoney(order.subtotalMinor, currency)}</dd>
          </div>
          {/* With a code, or a method the store collects itself, the sum is shown whole (subtotal − discount +
              shipping + fee = total); a card order without a code reads as it always did. */}
          {order.discountMinor > 0 ? (
            <div className="flex justify-between" data-testid="order-discount">
              <dt>{order.discountLabel}</dt>
              <dd>−{formatMoney(order.discountMinor, currency)}</dd>
            </div>
          ) : null}
          {(order.discountMinor > 0 || !card) && adjustmentsMinor !== 0 ? (
            <div className="flex justify-between">
              <dt>Shipping and adjustments</dt>
              <dd>{formatMoney(adjustmentsMinor, currency)}</dd>
            </div>
          ) : null}
          {feeMinor > 0 ? (
            <div className="flex justify-between" data-testid="order-method-fee">
              <dt>Cash on delivery fee</dt>
              <dd>{formatMoney(feeMinor, currency)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between font-semibold">
            <dt>{card || order.status === 'paid' ? 'Total paid' : 'Total to pay'}</dt>
            <dd>{formatMoney(order.totalMinor, currency)}</dd>
          </div>
          {order.refundedMinor > 0 ? (
            <div className="flex justify-between" data-testid="order-refunded">
              <dt>Refunded</dt>
              <dd>−{formatMoney(order.refundedMinor, currency)}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      {/* Returns are for goods that reached the shopper; a return already asked for stays in view. */}
      {order.returns.length > 0 ||
      (!cancelled && (order.fulfilment === 'shipped' || order.fulfilment === 'delivered')) ? (
        <ReturnSection
          id={id}
          token={token}
          currency={currency}
          paymentMethod={order.paymentMethod}
          returns={order.returns}
          contact={`Please contact ${store.name} (see “Questions about your order?” below), quoting order #${order.number}.`}
        />
      ) : null}

      {order.shippingAddress ? (
        <section aria-labelledby="order-address-heading" className="mt-8">
          <h2 id="order-address-heading" className="font-serif text-xl">
            Shipping address
          </h2>
          <PostalAddress address={order.shippingAddress} className="mt-2 text-sm" />
        </section>
      ) : null}

      <section aria-labelledby="order-contact-heading" className="mt-8">
        <h2 id="order-contact-heading" className="font-serif text-xl">
          Questions about your order?
        </h2>
        <p className="mt-2 text-sm">
          {store.contactEmail || store.contactUrl ? (
            <>
              Contact {store.name}
              {store.contactEmail ? (
                <>
                  {' '}
                  at{' '}
                  <a className="text-maroon underline" href={`mailto:${store.contactEmail}`}>
                    {store.contactEmail}
                  </a>
                </>
              ) : null}
              {store.contactUrl ? (
                <>
                  {store.contactEmail ? ' or through ' : ' through '}
                  <a
                    className="text-maroon underline"
                    href={store.contactUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    its contact page<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </>
              ) : null}
              , quoting order #{order.number}.
            </>
          ) : (
            <>Reply to your order confirmation email, quoting order #{order.number}.</>
          )}
        </p>
      </section>
    </div>
  );
}
