import { LOG_LEVELS, type LogLevelName } from '@shared/logs';
import { Download, RefreshCw, Trash2, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useSearch } from 'wouter';
import { type Column, DataTable } from '../../../components/admin/data-table';
import { Button, buttonClass } from '../../../components/ui/button';
import { paths } from '../../../lib/paths';
import { type LogEntry, useClearLogs, useLogList, useLogSources } from './use-logs';

const LEVEL_LABEL: Record<LogLevelName, string> = { info: 'Info', warning: 'Warning', error: 'Error' };
const LEVEL_STYLE: Record<LogLevelName, string> = {
  info: 'bg-sky-100 text-sky-900',
  warning: 'bg-amber-100 text-amber-900',
  error: 'bg-red-100 text-red-900',
};

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
  // Opened by a link (the Overview's error count: /admin/logs?level=error), the list starts at that level.
  const linkedLevel = new URLSearchParams(useSearch()).get('level');
  const [level, setLevel] = useState<LogLevelName | ''>(
    () => LOG_LEVELS.find((l) => l === linkedLevel) ?? '',
  );
  const [live, setLive] = useState(true);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const q = useDebounced(search.trim(), 300);
  const searchId = useId();
  const filter = { q: q || undefined, source: source || undefined, level: level || undefined };
  const { list: logs, items, total } = useLogList(filter, live);
  const sources = useLogSources(live);
  const clear = useClearLogs(() => setOpen(new Set()));
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

      <div className="mt-6">
        {logs.isError ? (
          <p className="text-sm text-red-800" role="alert">
            Could not load the logs.
          </p>
        ) : (
          <DataTable
            label="Application log"
            testId="log-table"
            // Fixed columns on phones: the message takes what is left and wraps, Details stays on screen.
            className="table-fixed sm:table-auto"
            rowClassName="align-top"
            columns={logColumns(open, toggle)}
            rows={items}
            rowKey={(entry) => entry.id}
            rowTestId="log-row"
            empty={<p className="text-muted">No logs found</p>}
            detail={(entry) => (open.has(entry.id) ? <LogDetails entry={entry} /> : null)}
            loadMore={{
              hasMore: logs.hasNextPage,
              loading: logs.isFetchingNextPage,
              onLoadMore: () => void logs.fetchNextPage(),
            }}
          />
        )}
      </div>
    </div>
  );
}

function logColumns(open: Set<number>, toggle: (id: number) => void): Array<Column<LogEntry>> {
  return [
    {
      id: 'time',
      header: 'Timestamp',
      headerClassName: 'w-[5.5rem] sm:w-auto sm:whitespace-nowrap',
      cellClassName: 'tabular-nums sm:whitespace-nowrap',
      cell: (entry) => (
        <>
          <span className="block sm:inline">{timestamp(entry.time).slice(0, 10)}</span>{' '}
          <span className="block sm:inline">{timestamp(entry.time).slice(11)}</span>
        </>
      ),
    },
    {
      id: 'level',
      header: 'Level',
      headerClassName: 'w-[5rem] sm:w-auto',
      cell: (entry) => (
        <span className={`rounded-full px-2 py-0.5 text-xs ${LEVEL_STYLE[entry.level]}`}>
          {LEVEL_LABEL[entry.level]}
        </span>
      ),
    },
    {
      // On phones the source goes under the message, so Details stays on the screen.
      id: 'source',
      header: 'Source',
      headerClassName: 'hidden sm:table-cell',
      cellClassName: 'hidden sm:table-cell',
      cell: (entry) => entry.source,
    },
    {
      id: 'message',
      header: 'Message',
      headerClassName: '',
      cellClassName: 'break-words',
      cell: (entry) => (
        <>
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
        </>
      ),
    },
    {
      id: 'details',
      header: 'Details',
      headerClassName: 'w-[3.75rem] sm:w-auto',
      cell: (entry) => (
        <button
          type="button"
          className="text-maroon hover:underline"
          aria-expanded={open.has(entry.id)}
          onClick={() => toggle(entry.id)}
        >
          {open.has(entry.id) ? 'Hide' : 'Show'}
        </button>
      ),
    },
  ];
}

function LogDetails({ entry }: { entry: LogEntry }) {
  return (
    <>
      {entry.requestId ? <p className="mb-1 text-xs text-muted">Request id: {entry.requestId}</p> : null}
      <pre className="max-h-80 overflow-auto rounded-lg bg-sand p-3 text-xs">{prettyJson(entry.details)}</pre>
    </>
  );
}
