import { ORDER_STATUS_LABEL, ORDER_STATUSES, type OrderStatusName } from '@shared/orders';
import { useState } from 'react';
import { type Column, DataTable } from '../../../components/admin/data-table';
import { Button } from '../../../components/ui/button';
import { formatMoney } from '../../../lib/money';
import { OrderDialog } from './order-dialog';
import { type OrderRow, useOrderList, useReconcileOrders } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

const statusStyle: Record<OrderStatusName, string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  payment_failed: 'bg-red-100 text-red-900',
  expired: 'bg-stone-200 text-stone-700',
};

function orderColumns(open: (id: string) => void): Array<Column<OrderRow>> {
  return [
    {
      id: 'order',
      header: 'Order',
      cell: (o) => (
        <button type="button" className="font-medium text-maroon hover:underline" onClick={() => open(o.id)}>
          #{o.number}
        </button>
      ),
    },
    { id: 'date', header: 'Date', cell: (o) => dateTime.format(new Date(o.createdAt)) },
    {
      id: 'status',
      header: 'Status',
      cell: (o) => (
        <>
          <span className={`rounded-full px-2 py-0.5 text-xs ${statusStyle[o.status]}`}>
            {ORDER_STATUS_LABEL[o.status]}
          </span>
          {o.paymentMode === 'demo' ? <span className="ml-2 text-xs text-muted">demo</span> : null}
        </>
      ),
    },
    { id: 'customer', header: 'Customer', cell: (o) => o.customerEmail ?? '—' },
    {
      id: 'total',
      header: 'Total',
      headerClassName: 'text-right',
      cellClassName: 'text-right',
      cell: (o) => formatMoney(o.totalMinor, o.currency),
    },
  ];
}

export function OrdersPanel() {
  const [status, setStatus] = useState<OrderStatusName | ''>('');
  const [selected, setSelected] = useState<string | null>(null);
  const { list, items } = useOrderList(status);
  const reconcile = useReconcileOrders();

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
      <div className="mt-6">
        <DataTable
          label="Orders"
          columns={orderColumns(setSelected)}
          rows={items}
          rowKey={(o) => o.id}
          rowTestId="order-row"
          empty={<p className="text-muted">No orders yet.</p>}
          loadMore={{
            hasMore: list.hasNextPage,
            loading: list.isFetchingNextPage,
            onLoadMore: () => void list.fetchNextPage(),
          }}
        />
      </div>
      {selected ? <OrderDialog id={selected} onClose={() => setSelected(null)} /> : null}
    </div>
  );
}
