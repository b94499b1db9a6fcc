import { ORDER_STATUS_LABEL } from '@shared/orders';
import { OrderLines } from '../../../components/order-lines';
import { Modal } from '../../../components/ui/modal';
import { formatMoney } from '../../../lib/money';
import { useOrder } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

function Address({ label, value }: { label: string; value: unknown }) {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const address = (v.address && typeof v.address === 'object' ? v.address : v) as Record<string, unknown>;
  const parts = ['line1', 'line2', 'city', 'state', 'postal_code', 'country']
    .map((k) => address[k])
    .filter((x): x is string => typeof x === 'string' && x !== '');
  return (
    <div>
      <h3 className="font-medium">{label}</h3>
      <p className="text-muted">
        {typeof v.name === 'string' ? `${v.name}, ` : ''}
        {parts.join(', ') || '—'}
      </p>
    </div>
  );
}

/** One order: its lines, totals, addresses and the payment events received for it. */
export function OrderDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const order = useOrder(id);
  return (
    <Modal title={order.data ? `Order #${order.data.number}` : 'Order'} onClose={onClose}>
      {order.data ? (
        <div className="mt-4 space-y-4 text-sm">
          <p>
            {ORDER_STATUS_LABEL[order.data.status]} · {dateTime.format(new Date(order.data.createdAt))}
            {order.data.paidAt ? ` · paid ${dateTime.format(new Date(order.data.paidAt))}` : ''}
          </p>
          <p>
            {order.data.customerName ?? ''} {order.data.customerEmail ? `<${order.data.customerEmail}>` : ''}
          </p>
          <OrderLines
            lines={order.data.lines}
            currency={order.data.currency}
            className="border-y border-stone-line"
          />
          <p className="flex justify-between font-medium">
            <span>Subtotal {order.data.totalMinor !== null ? '/ charged' : ''}</span>
            <span>
              {formatMoney(order.data.subtotalMinor, order.data.currency)}
              {order.data.totalMinor !== null
                ? ` / ${formatMoney(order.data.totalMinor, order.data.currency)}`
                : ''}
            </span>
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <Address label="Shipping address" value={order.data.shippingAddress} />
            <Address label="Billing address" value={order.data.billingAddress} />
          </div>
          <p className="break-all text-xs text-muted">Stripe session: {order.data.stripeSessionId ?? '—'}</p>
          <div>
            <h3 className="font-medium">Events</h3>
            {order.data.events.length === 0 ? (
              <p className="text-muted">No payment events yet.</p>
            ) : (
              <ul className="text-xs text-muted">
                {order.data.events.map((e) => (
                  <li key={e.id}>
                    {dateTime.format(new Date(e.receivedAt))} · {e.type} · {e.outcome}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : (
        <div className="skeleton mt-4 h-40 rounded" aria-hidden="true" />
      )}
    </Modal>
  );
}
