import { formatMoney } from '@shared/money';
import { ORDER_STATUS_LABEL, ORDER_STATUSES, type OrderStatusName } from '@shared/orders';
import {
  PAYMENT_METHOD_LABEL,
  PAYMENT_METHODS,
  PAYMENT_STEP_LABEL,
  PAYMENT_STEPS,
  type PaymentMethodName,
  type PaymentStep,
} from '@shared/payment-methods';
import { useId, useState } from 'react';
import { useSearch } from 'wouter';
import { type Column, DataTable } from '../../../components/admin/data-table';
import { Button, buttonClass } from '../../../components/ui/button';
import { paths } from '../../../lib/paths';
import { linkedOrderFilters } from './linked-filters';
import { OrderDialog } from './order-dialog';
import { OrdersSummaryLine } from './orders-summary';
import { type OrderRow, useOrderList, useReconcileOrders } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

const stageStyle = (o: OrderRow) =>
  o.step === 'returned'
    ? 'bg-red-100 text-red-900'
    : o.fulfilment === 'cancelled'
      ? 'bg-stone-200 text-stone-800'
      : o.fulfilment === 'shipped' || o.fulfilment === 'delivered'
        ? 'bg-sky-100 text-sky-900'
        : statusStyle[o.status];

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
          <span className={`rounded-full px-2 py-0.5 text-xs ${stageStyle(o)}`}>{o.stage}</span>
          {o.refund !== 'none' ? (
            <span className="ml-2 rounded-full bg-stone-200 px-2 py-0.5 text-xs text-stone-800">
              {o.refund === 'full' ? 'Refunded' : 'Partly refunded'}
            </span>
          ) : null}
          {/* Demo is the card's gateway: cash and transfers never go through it. */}
          {o.paymentMode === 'demo' && o.paymentMethod === 'card' ? (
            <span className="ml-2 text-xs text-muted">demo</span>
          ) : null}
        </>
      ),
    },
    {
      id: 'method',
      header: 'Method',
      cell: (o) => <span data-testid="order-row-method">{PAYMENT_METHOD_LABEL[o.paymentMethod]}</span>,
    },
    { id: 'customer', header: 'Customer', cell: (o) => o.customerEmail ?? '—' },
    {
      id: 'code',
      header: 'Code',
      cell: (o) =>
        o.discountCode ? (
          <span className="font-mono text-xs" data-testid="order-row-code">
            {o.discountCode}
          </span>
        ) : (
          <span className="text-muted">
            —<span className="sr-only">no code</span>
          </span>
        ),
    },
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
  // Opened by a link (the Overview's counts), the list starts narrowed to what the link names.
  const search = useSearch();
  const [linked] = useState(() => linkedOrderFilters(search));
  const [status, setStatus] = useState<OrderStatusName | ''>(linked.status);
  const [selected, setSelected] = useState<string | null>(null);
  // The code filter applies when submitted (Enter or the button), not on every keystroke.
  const [codeText, setCodeText] = useState('');
  const [code, setCode] = useState('');
  const [method, setMethod] = useState<PaymentMethodName | ''>(linked.method);
  const [step, setStep] = useState<PaymentStep | ''>(linked.step);
  const codeId = useId();
  const { list, items, summary } = useOrderList({ status, code, method, step });
  const filtered = code !== '' || method !== '' || step !== '';
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
        <label className="flex items-center gap-2 text-sm">
          <span>Method</span>
          <select
            value={method}
            onChange={(e) => setMethod(e.target.value as PaymentMethodName | '')}
            className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
          >
            <option value="">Any method</option>
            {PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {PAYMENT_METHOD_LABEL[m]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          <span>Step</span>
          <select
            value={step}
            onChange={(e) => setStep(e.target.value as PaymentStep | '')}
            className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
          >
            <option value="">Any step</option>
            {PAYMENT_STEPS.map((s) => (
              <option key={s} value={s}>
                {PAYMENT_STEP_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <form
          aria-label="Filter orders by code"
          className="flex items-center gap-2 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            setCode(codeText.trim());
          }}
        >
          <label htmlFor={codeId}>Discount code</label>
          <input
            id={codeId}
            type="search"
            value={codeText}
            onChange={(e) => {
              setCodeText(e.target.value);
              // Emptied (or cleared with the field's own ×): every order again.
              if (e.target.value.trim() === '') setCode('');
            }}
            placeholder="e.g. EID10"
            maxLength={100}
            autoComplete="off"
            className="w-32 rounded-lg border border-stone-line bg-white px-2 py-1.5"
          />
          <Button type="submit" variant="secondary">
            Filter
          </Button>
        </form>
        <Button variant="secondary" onClick={() => reconcile.mutate()} disabled={reconcile.isPending}>
          {reconcile.isPending ? 'Checking…' : 'Check pending payments with Stripe'}
        </Button>
      </div>
      <OrdersExport />
      <OrdersSummaryLine summary={summary} />
      <div className="mt-6">
        <DataTable
          label="Orders"
          columns={orderColumns(setSelected)}
          rows={items}
          rowKey={(o) => o.id}
          rowTestId="order-row"
          empty={
            <p className="text-muted">
              {code && !method && !step
                ? `No orders with the code ${code}.`
                : filtered
                  ? 'No orders match these filters.'
                  : 'No orders yet.'}
            </p>
          }
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

/** A date as the export reads it (YYYY-MM-DD), in the admin's own calendar. */
function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The accounting export: paid orders of a range of days as a CSV file, this month so far unless changed. */
function OrdersExport() {
  const today = new Date();
  const [from, setFrom] = useState(() => isoDay(new Date(today.getFullYear(), today.getMonth(), 1)));
  const [to, setTo] = useState(() => isoDay(today));
  const id = useId();
  const problem =
    !from || !to ? 'Choose both dates.' : from > to ? 'The start must not be after the end.' : null;

  return (
    <fieldset className="mt-4 flex flex-wrap items-end gap-3 rounded-xl border border-stone-line p-3 text-sm">
      <legend className="px-1 font-medium">Export paid orders</legend>
      <div>
        <label htmlFor={`${id}-from`} className="block">
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
          className="mt-1 rounded-lg border border-stone-line bg-white px-2 py-1.5"
        />
      </div>
      <div>
        <label htmlFor={`${id}-to`} className="block">
          To
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
          className="mt-1 rounded-lg border border-stone-line bg-white px-2 py-1.5"
        />
      </div>
      {problem ? (
        <Button variant="secondary" disabled>
          Export CSV
        </Button>
      ) : (
        <a href={paths.adminOrdersExport({ from, to })} download className={buttonClass('secondary')}>
          Export CSV
        </a>
      )}
      <p id={`${id}-hint`} className="w-full text-xs text-muted">
        Orders by the day they were paid (UTC), both days included.
      </p>
      {problem ? (
        <p id={`${id}-error`} role="alert" className="w-full text-xs text-red-700">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}
