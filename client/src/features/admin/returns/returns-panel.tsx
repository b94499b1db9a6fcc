import { formatMoney } from '@shared/money';
import { RETURN_STATUS_LABEL, RETURN_STATUSES, type ReturnStatusName } from '@shared/returns';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { type Column, DataTable } from '../../../components/admin/data-table';
import { paths } from '../../../lib/paths';
import { ReturnDialog } from './return-dialog';
import { RETURN_STATUS_STYLE, reasonLabel } from './return-labels';
import { type ReturnRow, useReturnList } from './use-returns';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

function returnColumns(open: (id: string) => void): Array<Column<ReturnRow>> {
  return [
    {
      id: 'order',
      header: 'Order',
      cell: (r) => (
        <button type="button" className="font-medium text-maroon hover:underline" onClick={() => open(r.id)}>
          #{r.orderNumber}
          <span className="sr-only"> return, {dateTime.format(new Date(r.createdAt))}</span>
        </button>
      ),
    },
    { id: 'date', header: 'Asked', cell: (r) => dateTime.format(new Date(r.createdAt)) },
    {
      id: 'status',
      header: 'Status',
      cell: (r) => (
        <span className={`rounded-full px-2 py-0.5 text-xs ${RETURN_STATUS_STYLE[r.status]}`}>
          {RETURN_STATUS_LABEL[r.status]}
        </span>
      ),
    },
    { id: 'reason', header: 'Reason', cell: (r) => reasonLabel(r.reason) },
    { id: 'resolution', header: 'Wants', cell: (r) => (r.resolution === 'exchange' ? 'Exchange' : 'Refund') },
    {
      id: 'units',
      header: 'Units',
      headerClassName: 'text-right',
      cellClassName: 'text-right',
      cell: (r) => r.units,
    },
    { id: 'customer', header: 'Customer', cell: (r) => r.customerEmail ?? '—' },
    {
      id: 'refunded',
      header: 'Refunded',
      headerClassName: 'text-right',
      cellClassName: 'text-right',
      cell: (r) => (r.refundedMinor === null ? '—' : formatMoney(r.refundedMinor, r.currency)),
    },
  ];
}

/** The admin's Returns (issue 43): every return, newest first, narrowed by status; one opens in a dialog. */
export function ReturnsPanel() {
  const query = new URLSearchParams(useSearch());
  // Opened by a link (?status=requested, the Overview's counts), the list starts on that status.
  const [status, setStatus] = useState<ReturnStatusName | ''>(
    () => RETURN_STATUSES.find((s) => s === query.get('status')) ?? '',
  );
  const [selected, setSelected] = useState<string | null>(null);
  const { list, items } = useReturnList(status);
  // A return named by the address (?return=…, an order's link to it) opens at once.
  const linked = query.get('return');
  const [, navigate] = useLocation();
  const filter = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (linked) setSelected(linked);
  }, [linked]);
  const close = () => {
    setSelected(null);
    if (!linked) return;
    // Opened by a link, the dialog had no button here to give focus back to: the panel's first control.
    navigate(paths.adminDashboard(), { replace: true });
    requestAnimationFrame(() => filter.current?.focus());
  };
  return (
    <div>
      <label className="flex items-center gap-2 text-sm">
        <span>Status</span>
        <select
          ref={filter}
          value={status}
          onChange={(e) => setStatus(e.target.value as ReturnStatusName | '')}
          className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
        >
          <option value="">Any status</option>
          {RETURN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {RETURN_STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      {list.isError ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load returns: {list.error.message}
        </p>
      ) : null}
      <div className="mt-6">
        <DataTable
          label="Returns"
          columns={returnColumns(setSelected)}
          rows={list.isError ? [] : items}
          rowKey={(r) => r.id}
          rowTestId="return-row"
          empty={
            <p className="text-muted">
              {status ? `No ${RETURN_STATUS_LABEL[status].toLowerCase()} returns.` : 'No returns yet.'}
            </p>
          }
          loadMore={{
            hasMore: list.hasNextPage,
            loading: list.isFetchingNextPage,
            onLoadMore: () => void list.fetchNextPage(),
          }}
        />
      </div>
      {selected ? <ReturnDialog id={selected} onClose={close} /> : null}
    </div>
  );
}
