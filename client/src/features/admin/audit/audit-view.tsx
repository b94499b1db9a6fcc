import type { AuditEntry } from '@shared/audit';
import { RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { type Column, DataTable } from '../../../components/admin/data-table';
import { Button } from '../../../components/ui/button';
import { trpc } from '../../../lib/trpc';

/** ISO time as "2026-11-26 10:04:31" (UTC), as the log shows it. */
const when = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/**
 * The Audit tab (owner only, decision 0031): every change an admin made, newest first, filtered by admin,
 * action and a range of days. Each row opens to show what was asked and, for edits, before and after.
 */
export function AuditView() {
  const [admin, setAdmin] = useState('');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [open, setOpen] = useState<Set<number>>(new Set());
  const ids = { admin: useId(), action: useId(), from: useId(), to: useId() };
  const filter = {
    ...(admin ? { admin } : {}),
    ...(action ? { action } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const list = trpc.admin.audit.list.useInfiniteQuery(
    { ...filter, limit: 50 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined, staleTime: 0 },
  );
  const facets = trpc.admin.audit.facets.useQuery(undefined, { staleTime: 0 });
  const items = list.data?.pages.flatMap((p) => p.items);
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns: Array<Column<AuditEntry>> = [
    {
      id: 'at',
      header: 'When (UTC)',
      cellClassName: 'tabular-nums whitespace-nowrap',
      cell: (e) => when(e.at),
    },
    { id: 'admin', header: 'Admin', cellClassName: 'break-all', cell: (e) => e.admin },
    { id: 'ip', header: 'Address', cell: (e) => e.ip ?? 'Unknown' },
    { id: 'action', header: 'Action', cellClassName: 'break-all', cell: (e) => e.action },
    { id: 'target', header: 'On', cellClassName: 'break-all', cell: (e) => e.target ?? '—' },
    {
      id: 'details',
      header: 'Details',
      cell: (e) => (
        <Button
          variant="secondary"
          aria-expanded={open.has(e.id)}
          aria-label={`${open.has(e.id) ? 'Hide' : 'Show'} details of ${e.action} at ${when(e.at)}`}
          onClick={() => toggle(e.id)}
        >
          {open.has(e.id) ? 'Hide' : 'Show'}
        </Button>
      ),
    },
  ];

  const select = (id: string, label: string, value: string, set: (v: string) => void, options: string[]) => (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="text-muted">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => set(e.target.value)}
        className="rounded-lg border border-stone-line bg-white px-2 py-2"
      >
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
  const day = (id: string, label: string, value: string, set: (v: string) => void) => (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="text-muted">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        onChange={(e) => set(e.target.value)}
        className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
      />
    </div>
  );

  return (
    <div>
      <h2 className="font-serif text-2xl">Audit</h2>
      <p className="mt-1 text-sm text-muted">
        Every change made in the admin: who, when, from where and what.
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-3 rounded-2xl border border-stone-line bg-white p-4">
        {select(ids.admin, 'Admin', admin, setAdmin, facets.data?.admins ?? [])}
        {select(ids.action, 'Action', action, setAction, facets.data?.actions ?? [])}
        {day(ids.from, 'From', from, setFrom)}
        {day(ids.to, 'To', to, setTo)}
        <Button
          variant="secondary"
          onClick={() => {
            void list.refetch();
            void facets.refetch();
          }}
          disabled={list.isFetching}
        >
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          Refresh
        </Button>
      </div>
      <div className="mt-4">
        {list.isError ? (
          <p role="alert" className="text-sm text-red-800">
            {list.error.message}
          </p>
        ) : (
          <DataTable<AuditEntry>
            label="Audit"
            testId="audit-table"
            rowTestId="audit-row"
            rows={items}
            rowKey={(e) => e.id}
            columns={columns}
            empty={<p className="text-muted">No changes recorded.</p>}
            detail={(e) =>
              open.has(e.id) ? (
                <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded-lg bg-sand p-3 text-xs">
                  {JSON.stringify(e.details, null, 2)}
                </pre>
              ) : null
            }
            loadMore={{
              hasMore: list.hasNextPage,
              loading: list.isFetchingNextPage,
              onLoadMore: () => void list.fetchNextPage(),
            }}
          />
        )}
      </div>
    </div>
  );
}
