import { formatMoney } from '@shared/money';
import { PAYMENT_METHOD_LABEL } from '@shared/payment-methods';
import { RETURN_STATUS_LABEL } from '@shared/returns';
import { type ReactNode, type RefObject, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { OrderLines } from '../../../components/order-lines';
import { PostalAddress } from '../../../components/postal-address';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { paths } from '../../../lib/paths';
import { RETURN_STATUS_STYLE } from '../returns/return-labels';
import { OrderActions } from './order-actions';
import { OrderEmails } from './order-emails';
import { OrderPayment } from './order-payment';
import { OrderRefunds } from './order-refunds';
import { OrderTimeline } from './order-timeline';
import { type OrderDetail, useOrder } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });
const at = (iso: string) => dateTime.format(new Date(iso));

/** Stripe's billing address ({ name, address: { line1, postal_code, ... } }), as it was stored. */
function BillingAddress({ value }: { value: unknown }) {
  if (!value || typeof value !== 'object') return <p className="text-muted">—</p>;
  const v = value as Record<string, unknown>;
  const address = (v.address && typeof v.address === 'object' ? v.address : v) as Record<string, unknown>;
  const parts = ['line1', 'line2', 'city', 'state', 'postal_code', 'country']
    .map((k) => address[k])
    .filter((x): x is string => typeof x === 'string' && x !== '');
  return (
    <p className="text-muted">
      {typeof v.name === 'string' ? `${v.name}, ` : ''}
      {parts.join(', ') || '—'}
    </p>
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

/** One order: its stage, goods, money, what can be done with it, its refunds, emails and timeline. */
export function OrderDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const order = useOrder(id);
  const summary = useRef<HTMLParagraphElement>(null);
  const [said, setSaid] = useState('');

  // After an action its form closes (and its button may go): focus goes to the order's stage, which now
  // reads the new state, and the status line says what was done. Toasts sit outside the modal dialog,
  // where the page is inert, so they would not be read out here.
  const onDone = (message: string) => {
    setSaid(message);
    requestAnimationFrame(() => summary.current?.focus());
  };

  return (
    <Modal title={order.data ? `Order #${order.data.number}` : 'Order'} onClose={onClose} wide>
      <p role="status" className="sr-only">
        {said}
      </p>
      {order.data ? (
        <OrderBody order={order.data} summaryRef={summary} onDone={onDone} />
      ) : order.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load the order: {order.error.message}
        </p>
      ) : (
        <div className="skeleton mt-4 h-40 rounded" aria-hidden="true" />
      )}
    </Modal>
  );
}

function OrderBody({
  order,
  summaryRef,
  onDone,
}: {
  order: OrderDetail;
  summaryRef: RefObject<HTMLParagraphElement | null>;
  onDone: (message: string) => void;
}) {
  const { currency } = order;
  return (
    <div className="space-y-6 text-sm">
      <div className="space-y-1">
        <p ref={summaryRef} tabIndex={-1} className="text-base outline-none focus-visible:outline-2">
          <span
            className="rounded-full bg-sand px-2 py-0.5 font-medium text-ink"
            data-testid="order-dialog-stage"
          >
            {/* A card order reads as it always did; the offline methods by their step (decision 0038). */}
            {order.paymentMethod === 'card' ? order.stage : order.stepLabel}
          </span>{' '}
          · placed {at(order.createdAt)}
          {order.paidAt ? ` · paid ${at(order.paidAt)}` : ''}
          {order.paymentMode === 'demo' && order.paymentMethod === 'card' ? ' · demo payment' : ''}
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
        <div className="flex flex-wrap gap-2 pt-2">
          {order.customerPageUrl ? <CopyCustomerLink url={order.customerPageUrl} /> : null}
          <a
            href={paths.adminPackingSlip(order.id)}
            target="_blank"
            rel="noopener"
            className="inline-flex items-center rounded-full border border-ink/80 px-3 py-1 text-xs font-medium hover:bg-ink hover:text-ivory"
          >
            Packing slip<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      </div>

      <Section title="Payment">
        <OrderPayment order={order} />
      </Section>

      <Section title="Items">
        <OrderLines lines={order.lines} currency={currency} className="border-y border-stone-line" />
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1" data-testid="order-money">
          <dt>Subtotal</dt>
          <dd className="text-right">{formatMoney(order.subtotalMinor, currency)}</dd>
          {order.salesMinor > 0 ? (
            <>
              <dt className="text-muted">Sales took off (in the subtotal)</dt>
              <dd className="text-right text-muted">{formatMoney(order.salesMinor, currency)}</dd>
            </>
          ) : null}
          {order.discountMinor > 0 ? (
            <>
              <dt data-testid="order-discount-label">{order.discountLabel}</dt>
              <dd className="text-right" data-testid="order-discount">
                −{formatMoney(order.discountMinor, currency)}
              </dd>
              {order.adjustmentsMinor !== 0 ? (
                <>
                  <dt>Shipping and adjustments</dt>
                  <dd className="text-right">{formatMoney(order.adjustmentsMinor, currency)}</dd>
                </>
              ) : null}
            </>
          ) : null}
          {order.methodFeeMinor > 0 ? (
            <>
              <dt data-testid="order-fee-label">{PAYMENT_METHOD_LABEL[order.paymentMethod]} fee</dt>
              <dd className="text-right" data-testid="order-fee">
                {formatMoney(order.methodFeeMinor, currency)}
              </dd>
            </>
          ) : null}
          {order.paymentMethod !== 'card' && order.totalMinor !== null ? (
            <>
              <dt className="font-medium">Total</dt>
              <dd className="text-right font-medium">{formatMoney(order.totalMinor, currency)}</dd>
            </>
          ) : null}
          <dt className="font-medium">Paid</dt>
          <dd className="text-right font-medium">
            {order.paidAt ? formatMoney(order.paidMinor, currency) : '—'}
          </dd>
          <dt>Refunded</dt>
          <dd className="text-right">{formatMoney(order.refundedMinor, currency)}</dd>
          {order.refundPendingMinor > 0 ? (
            <>
              <dt>Refund pending</dt>
              <dd className="text-right">{formatMoney(order.refundPendingMinor, currency)}</dd>
            </>
          ) : null}
          <dt>Refundable</dt>
          <dd className="text-right">{formatMoney(order.refundableMinor, currency)}</dd>
        </dl>
      </Section>

      <div className="grid gap-6 sm:grid-cols-2">
        <Section title="Shipping address">
          {order.shippingAddress ? <PostalAddress address={order.shippingAddress} /> : <p>—</p>}
        </Section>
        <Section title="Billing address">
          <BillingAddress value={order.billingAddress} />
        </Section>
      </div>

      <Section title="Shipment">
        {order.shipment ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="order-shipment">
            <dt className="text-muted">Carrier</dt>
            <dd>{order.shipment.carrier}</dd>
            <dt className="text-muted">Tracking number</dt>
            <dd className="font-mono">{order.shipment.trackingNumber}</dd>
            <dt className="text-muted">Tracking link</dt>
            <dd className="break-all">
              {order.shipment.trackingUrl ? (
                <a
                  className="text-maroon underline"
                  href={order.shipment.trackingUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {order.shipment.trackingUrl}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                '—'
              )}
            </dd>
            <dt className="text-muted">Shipped</dt>
            <dd>{at(order.shipment.shippedAt)}</dd>
            {order.deliveredAt ? (
              <>
                <dt className="text-muted">Delivered</dt>
                <dd>{at(order.deliveredAt)}</dd>
              </>
            ) : null}
          </dl>
        ) : order.cancelledAt ? (
          <p>Cancelled {at(order.cancelledAt)}: nothing will ship.</p>
        ) : (
          <p className="text-muted">Not shipped yet.</p>
        )}
      </Section>

      <Section title="Actions">
        <OrderActions order={order} onDone={onDone} />
      </Section>

      <Section title="Refunds">
        <OrderRefunds order={order} onDone={onDone} />
      </Section>

      {order.returns.length > 0 ? (
        <Section title="Returns">
          <OrderReturns returns={order.returns} />
        </Section>
      ) : null}

      <Section title="Emails">
        <OrderEmails order={order} />
      </Section>

      <Section title="Timeline">
        <OrderTimeline order={order} />
      </Section>

      <Section title="Payment events">
        <p className="break-all text-xs text-muted">Stripe session: {order.stripeSessionId ?? '—'}</p>
        {order.events.length === 0 ? (
          <p className="text-muted">No payment events yet.</p>
        ) : (
          <ul className="text-xs text-muted">
            {order.events.map((e) => (
              <li key={e.id}>
                {at(e.receivedAt)} · {e.type} · {e.outcome}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

/** The order's returns and exchanges, each a link that opens it in the Returns tab. */
function OrderReturns({ returns }: { returns: OrderDetail['returns'] }) {
  return (
    <ul className="space-y-1" data-testid="order-dialog-returns">
      {returns.map((r) => (
        <li key={r.id} className="flex flex-wrap items-center gap-2">
          <Link href={paths.adminReturn(r.id)} className="font-medium text-maroon underline">
            {r.resolution === 'exchange' ? 'Exchange' : 'Refund'} asked {at(r.createdAt)}
          </Link>
          <span className={`rounded-full px-2 py-0.5 text-xs ${RETURN_STATUS_STYLE[r.status]}`}>
            {RETURN_STATUS_LABEL[r.status]}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The shopper's own page, for the admin to send on (a shopper who lost the email). */
function CopyCustomerLink({ url }: { url: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const inputId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      // No clipboard (a plain-http address, a refused permission): the link is shown to copy by hand.
      setState('failed');
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" className="px-3 py-1 text-xs" onClick={() => void copy()}>
        Copy customer link
      </Button>
      <span role="status" className="text-xs">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Could not copy: select the link below.' : ''}
      </span>
      {state === 'failed' ? (
        <>
          <label htmlFor={inputId} className="sr-only">
            Customer link
          </label>
          <input
            id={inputId}
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            className="w-full rounded-lg border border-stone-line px-2 py-1 text-xs"
          />
        </>
      ) : null}
    </span>
  );
}
