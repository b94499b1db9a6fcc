import { LOG_LEVELS, type LogLevelName } from '@shared/logs';
import { Download, RefreshCw, Trash2, X } from 'lucide-react';
import { Fragment, useEffect, useId, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

const LEVEL_LABEL: Record<LogLevelName, string> = { info: 'Info', warning: 'Warning', error: 'Error' };
const LEVEL_STYLE: Record<LogLevelName, string> = {
  info: 'bg-sky-100 text-sky-900',
  warning: 'bg-amber-100 text-amber-900',
  error: 'bg-red-100 text-red-900',
};
const LIVE_INTERVAL_MS = 5000;

function timestamp(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** The application log: filters, live table with expandable details, export and clear. */
export function LogManagement({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const [search, setSearch] = useState('');
  const [source, setSource] = useState('');
  const [level, setLevel] = useState<LogLevelName | ''>('');
  const [live, setLive] = useState(true);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const q = useDebounced(search.trim(), 300);
  const searchId = useId();
  const utils = trpc.useUtils();

  const filter = { q: q || undefined, source: source || undefined, level: level || undefined };
  const logs = trpc.admin.logs.list.useInfiniteQuery(
    { ...filter, limit: 50 },
    {
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      staleTime: 0,
      refetchInterval: live ? LIVE_INTERVAL_MS : false,
    },
  );
  const sources = trpc.admin.logs.sources.useQuery(undefined, {
    staleTime: 0,
    refetchInterval: live ? LIVE_INTERVAL_MS : false,
  });
  const clear = trpc.admin.logs.clear.useMutation({
    onSuccess() {
      toast.success('All logs have been cleared');
      setOpen(new Set());
      void utils.admin.logs.invalidate();
    },
    onError() {
      toast.error('Could not clear the logs. Please try again.');
    },
  });

  const items = logs.data?.pages.flatMap((p) => p.items) ?? [];
  const total = logs.data?.pages[0]?.total ?? null;
  const sourceOptions = [...new Set([...(sources.data?.sources ?? []), ...(source ? [source] : [])])].sort();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const badges = [
    search.trim() ? { key: 'q', label: `Search: ${search.trim()}`, clear: () => setSearch('') } : null,
    source ? { key: 'source', label: `Source: ${source}`, clear: () => setSource('') } : null,
    level ? { key: 'level', label: `Level: ${LEVEL_LABEL[level]}`, clear: () => setLevel('') } : null,
  ].filter((b) => b !== null);

  return (
    <div>
      <Heading className="font-serif text-3xl">Log Management</Heading>

      <div
        className="mt-6 rounded-2xl border border-stone-line bg-white p-4 shadow-sm"
        data-testid="log-filters"
      >
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-60 flex-1">
            <label htmlFor={searchId} className="sr-only">
              Search in logs
            </label>
            <input
              id={searchId}
              type="search"
              value={search}
              maxLength={200}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Search in logs..."
              className="w-full rounded-lg border border-stone-line bg-white px-3 py-2 text-sm"
            />
          </div>
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-muted">Source</span>
            <select
              value={source}
              onChange={(e) => setSource(e.target.value)}
              className="rounded-lg border border-stone-line bg-white px-2 py-2"
            >
              <option value="">All Sources</option>
              {sourceOptions.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-muted">Level</span>
            <select
              value={level}
              onChange={(e) => setLevel(e.target.value as LogLevelName | '')}
              className="rounded-lg border border-stone-line bg-white px-2 py-2"
            >
              <option value="">All Levels</option>
              {LOG_LEVELS.map((l) => (
                <option key={l} value={l}>
                  {LEVEL_LABEL[l]}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="secondary"
            onClick={() => {
              void logs.refetch();
              void sources.refetch();
            }}
            disabled={logs.isFetching}
          >
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Refresh
          </Button>
          <a className={buttonClass('secondary')} href={paths.adminLogsExport(filter)} download>
            <Download aria-hidden="true" className="h-4 w-4" />
            Export
          </a>
          <Button
            variant="primary"
            disabled={clear.isPending}
            onClick={() => {
              if (window.confirm('Are you sure you want to clear all logs? This action cannot be undone.'))
                clear.mutate();
            }}
          >
            <Trash2 aria-hidden="true" className="h-4 w-4" />
            Clear Logs
          </Button>
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <label className="mr-2 flex items-center gap-2">
            <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} />
            <span>Follow new entries</span>
          </label>
          {badges.length > 0 ? <span className="text-muted">Active filters:</span> : null}
          {badges.map((b) => (
            <span
              key={b.key}
              className="inline-flex items-center gap-1 rounded-full bg-sand px-3 py-1 text-xs"
              data-testid="filter-badge"
            >
              {b.label}
              <button
                type="button"
                onClick={b.clear}
                className="rounded-full p-0.5 hover:bg-stone-line"
                aria-label={`Remove filter ${b.label}`}
              >
                <X aria-hidden="true" className="h-3 w-3" />
              </button>
            </span>
          ))}
          {total !== null ? (
            <span className="ml-auto text-muted" data-testid="log-total">
              {total} {total === 1 ? 'entry' : 'entries'}
            </span>
          ) : null}
        </div>
      </div>

      {logs.isPending ? (
        <div className="mt-6 space-y-2" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <div key={i} className="skeleton h-10 rounded" />
          ))}
        </div>
      ) : logs.isError ? (
        <p className="mt-6 text-sm text-red-800" role="alert">
          Could not load the logs.
        </p>
      ) : items.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-stone-line p-6 text-sm text-muted">
          No logs found
        </p>
      ) : (
        <div className="mt-6 overflow-x-auto">
          {/* Fixed columns on phones: the message takes what is left and wraps, Details stays on screen. */}
          <table className="w-full table-fixed text-left text-sm sm:table-auto" data-testid="log-table">
            <thead>
              <tr className="border-b border-stone-line text-muted">
                <th
                  scope="col"
                  className="w-[5.5rem] py-2 pr-2 font-medium sm:w-auto sm:pr-4 sm:whitespace-nowrap"
                >
                  Timestamp
                </th>
                <th scope="col" className="w-[5rem] py-2 pr-2 font-medium sm:w-auto sm:pr-4">
                  Level
                </th>
                {/* On phones the source goes under the message, so Details stays on the screen. */}
                <th scope="col" className="hidden py-2 pr-4 font-medium sm:table-cell">
                  Source
                </th>
                <th scope="col" className="py-2 pr-2 font-medium sm:pr-4">
                  Message
                </th>
                <th scope="col" className="w-[3.75rem] py-2 font-medium sm:w-auto sm:pr-4">
                  Details
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => {
                const expanded = open.has(entry.id);
                return (
                  <Fragment key={entry.id}>
                    <tr className="border-b border-stone-line/60 align-top" data-testid="log-row">
                      <td className="py-2 pr-2 tabular-nums sm:pr-4 sm:whitespace-nowrap">
                        <span className="block sm:inline">{timestamp(entry.time).slice(0, 10)}</span>{' '}
                        <span className="block sm:inline">{timestamp(entry.time).slice(11)}</span>
                      </td>
                      <td className="py-2 pr-2 sm:pr-4">
                        <span className={`rounded-full px-2 py-0.5 text-xs ${LEVEL_STYLE[entry.level]}`}>
                          {LEVEL_LABEL[entry.level]}
                        </span>
                      </td>
                      <td className="hidden py-2 pr-4 sm:table-cell">{entry.source}</td>
                      <td className="py-2 pr-2 break-words sm:pr-4">
                        {entry.message}
                        {entry.repeatCount > 1 ? (
                          <span
                            className="ml-2 rounded-full bg-stone-200 px-2 py-0.5 text-xs"
                            title={`Repeated until ${timestamp(entry.lastTime)}`}
                          >
                            ×{entry.repeatCount}
                          </span>
                        ) : null}
                        <span className="block text-xs text-muted sm:hidden">{entry.source}</span>
                      </td>
                      <td className="py-2 sm:pr-4">
                        <button
                          type="button"
                          className="text-maroon hover:underline"
                          aria-expanded={expanded}
                          onClick={() => toggle(entry.id)}
                        >
                          {expanded ? 'Hide' : 'Show'}
                        </button>
                      </td>
                    </tr>
                    {expanded ? (
                      <tr className="border-b border-stone-line/60">
                        <td colSpan={5} className="pb-3">
                          {entry.requestId ? (
                            <p className="mb-1 text-xs text-muted">Request id: {entry.requestId}</p>
                          ) : null}
                          <pre className="max-h-80 overflow-auto rounded-lg bg-sand p-3 text-xs">
                            {prettyJson(entry.details)}
                          </pre>
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
          {logs.hasNextPage ? (
            <Button
              variant="secondary"
              className="mt-4"
              disabled={logs.isFetchingNextPage}
              onClick={() => void logs.fetchNextPage()}
            >
              Load more
            </Button>
          ) : null}
        </div>
      )}
    </div>
  );
}
