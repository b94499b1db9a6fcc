import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Fragment, type ReactNode, useState } from 'react';
import { Button } from '../ui/button';

export type SortDir = 'asc' | 'desc';
export type SortState<Key extends string> = { key: Key; dir: SortDir };

export type Column<Row, Key extends string = never> = {
  /** Unique within the table; also the React key of its cells. */
  id: string;
  header: ReactNode;
  /** Makes the header a button that sorts by this key. */
  sortKey?: Key;
  cell: (row: Row) => ReactNode;
  headerClassName?: string;
  cellClassName?: string;
};

/** Sort state that flips direction on the same column and starts ascending on a new one. */
export function useSort<Key extends string>(initial: SortState<Key>) {
  const [sort, setSort] = useState(initial);
  const toggle = (key: Key) =>
    setSort((s) => (s.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' }));
  return { sort, toggle };
}

/**
 * The admin's table: sortable headers that announce their order (aria-sort), skeleton rows while the first
 * page loads, an empty state, optional detail rows under a row, and "Load more" for paged lists.
 */
export function DataTable<Row, Key extends string = never>(props: {
  label: string;
  columns: Array<Column<Row, Key>>;
  /** Undefined while the first page loads. */
  rows: Row[] | undefined;
  rowKey: (row: Row) => string | number;
  empty: ReactNode;
  sort?: SortState<Key>;
  onSort?: (key: Key) => void;
  /** Shown under its row when it returns something. */
  detail?: (row: Row) => ReactNode;
  loadMore?: { hasMore: boolean; loading: boolean; onLoadMore: () => void };
  skeletonRows?: number;
  className?: string;
  rowClassName?: string;
  rowTestId?: string;
  testId?: string;
}) {
  const { columns, rows, sort } = props;
  return (
    <div className="overflow-x-auto">
      <table
        className={`w-full text-left text-sm ${props.className ?? ''}`}
        aria-label={props.label}
        aria-busy={rows === undefined ? true : undefined}
        data-testid={props.testId}
      >
        <thead>
          <tr className="border-b border-stone-line text-muted">
            {columns.map((c) => {
              const active = c.sortKey !== undefined && sort?.key === c.sortKey;
              return (
                <th
                  key={c.id}
                  scope="col"
                  className={`py-2 pr-3 font-medium ${c.headerClassName ?? 'whitespace-nowrap'}`}
                  aria-sort={active ? (sort?.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {c.sortKey !== undefined && props.onSort ? (
                    <SortButton
                      label={c.header}
                      dir={active ? sort?.dir : undefined}
                      onClick={() => c.sortKey !== undefined && props.onSort?.(c.sortKey)}
                    />
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows === undefined
            ? Array.from({ length: props.skeletonRows ?? 3 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with no identity.
                <tr key={i}>
                  <td colSpan={columns.length} className="py-2">
                    <div className="skeleton h-8 rounded" aria-hidden="true" />
                  </td>
                </tr>
              ))
            : rows.map((row) => {
                const detail = props.detail?.(row);
                return (
                  <Fragment key={props.rowKey(row)}>
                    <tr
                      className={`border-b border-stone-line/60 ${props.rowClassName ?? ''}`}
                      data-testid={props.rowTestId}
                    >
                      {columns.map((c) => (
                        <td key={c.id} className={`py-2 pr-3 ${c.cellClassName ?? ''}`}>
                          {c.cell(row)}
                        </td>
                      ))}
                    </tr>
                    {detail ? (
                      <tr className="border-b border-stone-line/60">
                        <td colSpan={columns.length} className="pb-3">
                          {detail}
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
        </tbody>
      </table>
      {rows !== undefined && rows.length === 0 ? (
        <div className="py-10 text-center text-sm">{props.empty}</div>
      ) : null}
      {props.loadMore?.hasMore ? (
        <Button
          variant="secondary"
          className="mt-4"
          onClick={props.loadMore.onLoadMore}
          disabled={props.loadMore.loading}
        >
          {props.loadMore.loading ? 'Loading…' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}

function SortButton({
  label,
  dir,
  onClick,
}: {
  label: ReactNode;
  dir: SortDir | undefined;
  onClick: () => void;
}) {
  const Icon = dir === 'asc' ? ArrowUp : dir === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <button type="button" onClick={onClick} className="inline-flex items-center gap-1 hover:text-ink">
      {label}
      <Icon aria-hidden="true" className={`h-3.5 w-3.5 ${dir ? '' : 'opacity-40'}`} />
    </button>
  );
}
