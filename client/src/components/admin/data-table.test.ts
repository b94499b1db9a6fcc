import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type Column, DataTable } from './data-table';

type Row = { id: string; name: string };
const columns: Array<Column<Row, 'name'>> = [
  { id: 'id', header: 'ID', cell: (r) => r.id },
  { id: 'name', header: 'Name', sortKey: 'name', cell: (r) => r.name },
];

function render(props: Partial<Parameters<typeof DataTable<Row, 'name'>>[0]>) {
  return renderToStaticMarkup(
    createElement(DataTable<Row, 'name'>, {
      label: 'People',
      columns,
      rows: [{ id: '1', name: 'Ada' }],
      rowKey: (r: Row) => r.id,
      empty: 'Nobody here',
      ...props,
    }),
  );
}

describe('the admin data table', () => {
  it('announces the sorted column and its direction, and makes sortable headers buttons', () => {
    const html = render({ sort: { key: 'name', dir: 'desc' }, onSort: () => undefined });
    expect(html).toContain('aria-label="People"');
    expect(html).toMatch(/<th[^>]*aria-sort="descending"[^>]*><button type="button"[^>]*>Name/);
    expect(html).not.toMatch(/<th[^>]*aria-sort="[^"]*"[^>]*>ID/);
  });

  it('shows skeleton rows while the first page loads, and marks the table busy', () => {
    const html = render({ rows: undefined, skeletonRows: 2 });
    expect(html).toContain('aria-busy="true"');
    expect(html.match(/class="skeleton/g)).toHaveLength(2);
    expect(html).not.toContain('Nobody here');
  });

  it('shows the empty state when there are no rows', () => {
    expect(render({ rows: [] })).toContain('Nobody here');
    expect(render({})).not.toContain('Nobody here');
  });

  it('offers "Load more" only when there is more, and detail rows under their row', () => {
    const more = render({ loadMore: { hasMore: true, loading: false, onLoadMore: () => undefined } });
    expect(more).toContain('Load more');
    expect(
      render({ loadMore: { hasMore: false, loading: false, onLoadMore: () => undefined } }),
    ).not.toContain('Load more');
    const detailed = render({ detail: (r) => `More about ${r.name}` });
    expect(detailed).toMatch(/Ada<\/td><\/tr><tr[^>]*><td colSpan="2"[^>]*>More about Ada/);
  });
});
