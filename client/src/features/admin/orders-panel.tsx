import { ORDER_STATUS_LABEL, ORDER_STATUSES, type OrderStatusName } from '@shared/orders';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { formatMoney } from '../../lib/money';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

const statusStyle: Record<OrderStatusName, string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  payment_failed: 'bg-red-100 text-red-900',
  expired: 'bg-stone-200 text-stone-700',
};

export function OrdersPanel() {
  const [status, setStatus] = useState<OrderStatusName | ''>('');
  const [selected, setSelected] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const orders = trpc.admin.orders.list.useInfiniteQuery(
    { status: status || undefined, limit: 25 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  const reconcile = trpc.admin.orders.reconcile.useMutation({
    onSuccess(result) {
      toast.success(`Checked ${result.checked} waiting order(s) with Stripe; ${result.updated} updated.`);
      void utils.admin.orders.invalidate();
    },
    onError() {
      toast.error('Could not reach Stripe to check orders');
    },
  });
  const items = orders.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2 text-sm">
          <span>Status</span>
          <select
            value={status}
            onChange={(e) => setStatus(e.target.value as OrderStatusName | '')}
            className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
          >
            {/* Expired checkouts were never paid (abandoned carts, or spam): shown only when asked for. */}
            <option value="">All but expired</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ORDER_STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <Button variant="secondary" onClick={() => reconcile.mutate()} disabled={reconcile.isPending}>
          {reconcile.isPending ? 'Checking…' : 'Check pending payments with Stripe'}
        </Button>
      </div>
      {orders.isPending ? (
        <div className="mt-6 space-y-2" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <div key={i} className="skeleton h-10 rounded" />
          ))}
        </div>
      ) : items.length === 0 ? (
        <p className="mt-6 text-sm text-muted">No orders yet.</p>
      ) : (
        <div className="mt-6 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-stone-line text-muted">
                <th scope="col" className="py-2 pr-4 font-medium">
                  Order
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Date
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Customer
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => (
                <tr key={o.id} className="border-b border-stone-line/60" data-testid="order-row">
                  <td className="py-2 pr-4">
                    <button
                      type="button"
                      className="font-medium text-maroon hover:underline"
                      onClick={() => setSelected(o.id)}
                    >
                      #{o.number}
                    </button>
                  </td>
                  <td className="py-2 pr-4">{dateTime.format(new Date(o.createdAt))}</td>
                  <td className="py-2 pr-4">
                    <span className={`rounded-full px-2 py-0.5 text-xs ${statusStyle[o.status]}`}>
                      {ORDER_STATUS_LABEL[o.status]}
                    </span>
                    {o.paymentMode === 'demo' ? <span className="ml-2 text-xs text-muted">demo</span> : null}
                  </td>
                  <td className="py-2 pr-4">{o.customerEmail ?? '—'}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(o.totalMinor, o.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {orders.hasNextPage ? (
            <Button variant="secondary" className="mt-4" onClick={() => void orders.fetchNextPage()}>
              Load more
            </Button>
          ) : null}
        </div>
      )}
      {selected ? <OrderDialog id={selected} onClose={() => setSelected(null)} /> : null}
    </div>
  );
}

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

function OrderDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const order = trpc.admin.orders.byId.useQuery({ id });
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
          <ul className="divide-y divide-stone-line border-y border-stone-line">
            {order.data.lines.map((l) => (
              <li key={`${l.productId}-${l.size}`} className="flex justify-between py-2">
                <span>
                  {l.title}
                  {l.size ? ` (${l.size})` : ''} × {l.quantity}
                </span>
                <span>{formatMoney(l.lineTotalMinor, order.data.currency)}</span>
              </li>
            ))}
          </ul>
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
