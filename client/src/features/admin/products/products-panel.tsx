import { keepPreviousData } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown, History, Pencil, RefreshCw, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import type { ADMIN_PRODUCT_SORTS } from '../../../../../src/shared/product-input';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatMoneyExact } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { CatalogManagement } from '../catalog/catalog-management';
import { AddProductDialog, EditProductDialog, HistoryDialog } from './product-dialogs';

type Sort = (typeof ADMIN_PRODUCT_SORTS)[number];
const COLUMNS: Array<{ key: Sort | null; label: string }> = [
  { key: 'id', label: 'ID' },
  { key: 'sku', label: 'SKU' },
  { key: 'title', label: 'Title' },
  { key: 'price', label: 'Price' },
  { key: 'currency', label: 'Currency' },
  { key: 'page_order', label: 'Page Order' },
  { key: null, label: 'Tags' },
  { key: null, label: 'Images' },
  { key: null, label: 'Actions' },
];

export function ProductsPanel() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<{ key: Sort; dir: 'asc' | 'desc' }>({ key: 'created_at', dir: 'desc' });
  const [dialog, setDialog] = useState<
    { kind: 'add' | 'catalog' } | { kind: 'edit' | 'history'; id: string } | null
  >(null);
  const utils = trpc.useUtils();

  useEffect(() => {
    const t = setTimeout(() => setQ(text), 300);
    return () => clearTimeout(t);
  }, [text]);

  const list = trpc.admin.products.list.useInfiniteQuery(
    { q: q || undefined, sort: sort.key, dir: sort.dir, limit: 50 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined, placeholderData: keepPreviousData },
  );
  const remove = trpc.admin.products.remove.useMutation({
    onSuccess() {
      toast.success('Product deleted successfully');
      void utils.admin.products.list.invalidate();
      void utils.catalogue.invalidate();
    },
    onError() {
      toast.error('Failed to delete product');
    },
  });
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    try {
      await utils.admin.products.list.refetch();
      toast.success('Products refreshed from database');
    } catch {
      toast.error('Failed to refresh products');
    } finally {
      setRefreshing(false);
    }
  };

  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const toggleSort = (key: Sort) =>
    setSort((s) => (s.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' }));

  return (
    <div>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex-1">
          <span className="sr-only">Search products</span>
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Search products by title, SKU, price, or tags..."
            className="w-full min-w-60 rounded-lg border border-stone-line bg-white px-3 py-2 text-sm"
          />
        </label>
        <Button variant="secondary" onClick={() => void refresh()} disabled={refreshing}>
          <RefreshCw aria-hidden="true" className={`h-4 w-4 ${refreshing ? 'animate-spin' : ''}`} />
          {refreshing ? 'Refreshing...' : 'Refresh Products'}
        </Button>
        <Button variant="secondary" onClick={() => setDialog({ kind: 'catalog' })}>
          Manage Catalog
        </Button>
        <Button className="bg-emerald-700 hover:bg-emerald-800" onClick={() => setDialog({ kind: 'add' })}>
          Add Product
        </Button>
      </div>
      <p className="mt-3 text-xs text-muted" aria-live="polite">
        {list.data ? `${total} products` : ''}
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-stone-line text-muted">
              {COLUMNS.map((c) => (
                <th
                  key={c.label}
                  scope="col"
                  className="py-2 pr-3 font-medium whitespace-nowrap"
                  aria-sort={
                    c.key && sort.key === c.key
                      ? sort.dir === 'asc'
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  {c.key ? (
                    <button
                      type="button"
                      onClick={() => toggleSort(c.key as Sort)}
                      className="inline-flex items-center gap-1 hover:text-ink"
                    >
                      {c.label}
                      {sort.key === c.key ? (
                        sort.dir === 'asc' ? (
                          <ArrowUp aria-hidden="true" className="h-3.5 w-3.5" />
                        ) : (
                          <ArrowDown aria-hidden="true" className="h-3.5 w-3.5" />
                        )
                      ) : (
                        <ArrowUpDown aria-hidden="true" className="h-3.5 w-3.5 opacity-40" />
                      )}
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.isPending
              ? [0, 1, 2].map((i) => (
                  <tr key={i}>
                    <td colSpan={COLUMNS.length} className="py-2">
                      <div className="skeleton h-8 rounded" aria-hidden="true" />
                    </td>
                  </tr>
                ))
              : items.map((p) => (
                  <tr key={p.id} className="border-b border-stone-line/60" data-testid="product-row">
                    <td className="py-2 pr-3 font-mono text-xs" title={p.id}>
                      {p.id.slice(0, 8)}…
                    </td>
                    <td className="py-2 pr-3">{p.sku}</td>
                    <td className="py-2 pr-3">{p.title}</td>
                    <td className="py-2 pr-3 whitespace-nowrap">
                      {formatMoneyExact(p.priceMinor, p.currency).split(' ')[1]}
                    </td>
                    <td className="py-2 pr-3">{p.currency.toUpperCase()}</td>
                    <td className="py-2 pr-3">{p.pageOrder}</td>
                    <td className="py-2 pr-3">
                      <div className="flex flex-wrap gap-1">
                        {p.tags.map((t) => (
                          <span key={t} className="rounded-full bg-sand px-2 py-0.5 text-xs">
                            {t}
                          </span>
                        ))}
                      </div>
                    </td>
                    <td
                      className="py-2 pr-3"
                      title={p.mediaCount > 0 ? `${p.mediaCount} image(s) attached` : 'No images'}
                    >
                      {p.mediaCount}
                    </td>
                    <td className="py-2 whitespace-nowrap">
                      <IconButton
                        label={`History of ${p.title}`}
                        onClick={() => setDialog({ kind: 'history', id: p.id })}
                      >
                        <History aria-hidden="true" className="h-4 w-4" />
                      </IconButton>
                      <IconButton
                        label={`Edit ${p.title}`}
                        onClick={() => setDialog({ kind: 'edit', id: p.id })}
                      >
                        <Pencil aria-hidden="true" className="h-4 w-4" />
                      </IconButton>
                      <IconButton
                        label={`Delete ${p.title}`}
                        onClick={() => {
                          if (window.confirm('Are you sure you want to delete this product?'))
                            remove.mutate({ id: p.id });
                        }}
                      >
                        <Trash2 aria-hidden="true" className="h-4 w-4" />
                      </IconButton>
                    </td>
                  </tr>
                ))}
          </tbody>
        </table>
        {list.data && items.length === 0 ? (
          <div className="py-12 text-center">
            <p className="font-medium">No products found</p>
            <p className="text-sm text-muted">
              {q ? 'No product matches this search.' : 'All products have been deleted or no products exist'}
            </p>
          </div>
        ) : null}
        {list.hasNextPage ? (
          <Button
            variant="secondary"
            className="mt-4"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
          >
            Load more
          </Button>
        ) : null}
      </div>
      {dialog?.kind === 'add' ? <AddProductDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'catalog' ? (
        <Modal title="Catalog Management" onClose={() => setDialog(null)} wide>
          <CatalogManagement />
        </Modal>
      ) : null}
      {dialog?.kind === 'edit' ? <EditProductDialog id={dialog.id} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'history' ? <HistoryDialog id={dialog.id} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

function IconButton({
  label,
  onClick,
  children,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      className="rounded p-1.5 text-muted hover:bg-sand hover:text-ink"
    >
      {children}
    </button>
  );
}
