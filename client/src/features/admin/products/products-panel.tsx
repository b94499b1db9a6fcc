import { minorToMajorString } from '@shared/money';
import { sortSizes } from '@shared/sizes';
import { History, Pencil, RefreshCw, Trash2 } from 'lucide-react';
import { Fragment, type ReactNode, useEffect, useState } from 'react';
import { type Column, DataTable, useSort } from '../../../components/admin/data-table';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { CatalogManagement } from '../catalog/catalog-management';
import { useIsOwner } from '../owner-only';
import { AddProductDialog, EditProductDialog, HistoryDialog } from './product-dialogs';
import {
  type ProductRow,
  type ProductSort,
  useProductList,
  useRefreshProducts,
  useRemoveProduct,
} from './use-products';

type Dialog = { kind: 'add' | 'catalog' } | { kind: 'edit' | 'history'; id: string };

function productColumns(open: (dialog: Dialog) => void, remove: (row: ProductRow) => void) {
  const columns: Array<Column<ProductRow, ProductSort>> = [
    {
      id: 'id',
      header: 'ID',
      sortKey: 'id',
      cellClassName: 'font-mono text-xs',
      cell: (p) => <span title={p.id}>{p.id.slice(0, 8)}…</span>,
    },
    { id: 'sku', header: 'SKU', sortKey: 'sku', cell: (p) => p.sku },
    { id: 'title', header: 'Title', sortKey: 'title', cell: (p) => p.title },
    {
      id: 'price',
      header: 'Price',
      sortKey: 'price',
      cellClassName: 'whitespace-nowrap',
      cell: (p) => minorToMajorString(p.priceMinor, p.currency),
    },
    { id: 'currency', header: 'Currency', sortKey: 'currency', cell: (p) => p.currency.toUpperCase() },
    { id: 'page_order', header: 'Page Order', sortKey: 'page_order', cell: (p) => p.pageOrder },
    {
      id: 'tags',
      header: 'Tags',
      cell: (p) => (
        <div className="flex flex-wrap gap-1">
          {p.tags.map((t) => (
            <span key={t} className="rounded-full bg-sand px-2 py-0.5 text-xs">
              {t}
            </span>
          ))}
        </div>
      ),
    },
    {
      id: 'stock',
      header: 'Stock',
      cell: (p) =>
        p.colours.length > 0 ? (
          <ColourStockSummary colours={p.colours} stock={p.stock} />
        ) : (
          <StockSummary stock={p.stock} />
        ),
    },
    {
      id: 'images',
      header: 'Images',
      cell: (p) => (
        <span title={p.mediaCount > 0 ? `${p.mediaCount} image(s) attached` : 'No images'}>
          {p.mediaCount}
        </span>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      cellClassName: 'whitespace-nowrap',
      cell: (p) => (
        <>
          <IconButton label={`History of ${p.title}`} onClick={() => open({ kind: 'history', id: p.id })}>
            <History aria-hidden="true" className="h-4 w-4" />
          </IconButton>
          <IconButton label={`Edit ${p.title}`} onClick={() => open({ kind: 'edit', id: p.id })}>
            <Pencil aria-hidden="true" className="h-4 w-4" />
          </IconButton>
          <IconButton label={`Delete ${p.title}`} onClick={() => remove(p)}>
            <Trash2 aria-hidden="true" className="h-4 w-4" />
          </IconButton>
        </>
      ),
    },
  ];
  return columns;
}

export function ProductsPanel() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const { sort, toggle } = useSort<ProductSort>({ key: 'created_at', dir: 'desc' });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const isOwner = useIsOwner();

  useEffect(() => {
    const t = setTimeout(() => setQ(text), 300);
    return () => clearTimeout(t);
  }, [text]);

  const { list, items, total } = useProductList({ q, sort: sort.key, dir: sort.dir });
  const remove = useRemoveProduct();
  const refreshProducts = useRefreshProducts();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    await refreshProducts();
    setRefreshing(false);
  };
  const columns = productColumns(setDialog, (p) => {
    if (window.confirm('Are you sure you want to delete this product?')) remove.mutate({ id: p.id });
  });

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
        {/* Catalogue versions are the owner's (the server refuses staff): not offered to staff at all. */}
        {isOwner ? (
          <Button variant="secondary" onClick={() => setDialog({ kind: 'catalog' })}>
            Manage Catalog
          </Button>
        ) : null}
        <Button className="bg-emerald-700 hover:bg-emerald-800" onClick={() => setDialog({ kind: 'add' })}>
          Add Product
        </Button>
      </div>
      <p className="mt-3 text-xs text-muted" aria-live="polite">
        {list.data ? `${total} products` : ''}
      </p>
      <div className="mt-2">
        <DataTable
          label="Products"
          columns={columns}
          rows={items}
          rowKey={(p) => p.id}
          rowTestId="product-row"
          sort={sort}
          onSort={toggle}
          empty={
            <>
              <p className="font-medium">No products found</p>
              <p className="text-muted">
                {q
                  ? 'No product matches this search.'
                  : 'All products have been deleted or no products exist'}
              </p>
            </>
          }
          loadMore={{
            hasMore: list.hasNextPage,
            loading: list.isFetchingNextPage,
            onLoadMore: () => void list.fetchNextPage(),
          }}
        />
      </div>
      {dialog?.kind === 'add' ? <AddProductDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'catalog' && isOwner ? (
        <Modal title="Catalog Management" onClose={() => setDialog(null)} wide>
          <CatalogManagement />
        </Modal>
      ) : null}
      {dialog?.kind === 'edit' ? <EditProductDialog id={dialog.id} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'history' ? <HistoryDialog id={dialog.id} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

/**
 * Tracked sizes and their counts, as one line of text ("S: 3; M: 0, sold out; L: 5 (2 held)") that reads
 * the same on screen and to a screen reader: every separator is text. Sizes not listed are not tracked
 * (always available). Sold out (nothing beyond what open checkouts hold) is said in words, not only by colour.
 */
function StockSummary({ stock }: { stock: ProductRow['stock'] }) {
  if (stock.length === 0) return <span className="text-muted">Not tracked</span>;
  const bySize = new Map(stock.map((s) => [s.size, s]));
  const sizes = sortSizes(stock.map((s) => s.size)).filter((size) => bySize.has(size));
  return (
    <p className="text-xs" data-testid="product-stock">
      {sizes.map((size, i) => {
        const s = bySize.get(size);
        if (!s) return null;
        return (
          <Fragment key={size}>
            {i > 0 ? '; ' : null}
            <span className="whitespace-nowrap">
              <span className="font-medium">{size}</span>: {s.onHand}
              {s.onHand <= s.reserved ? (
                <>
                  , <span className="font-medium text-red-700">sold out</span>
                </>
              ) : null}
              {s.reserved > 0 ? <span className="text-muted"> ({s.reserved} held)</span> : null}
            </span>
          </Fragment>
        );
      })}
    </p>
  );
}

/**
 * A product with colours: one line per colour ("Teal: S 2 · M 0, sold out"), and the all-colours count
 * its colours fall back on. A colour with no count of its own says where its sizes are counted.
 */
function ColourStockSummary({ colours, stock }: { colours: string[]; stock: ProductRow['stock'] }) {
  const pools = new Map<string | null, ProductRow['stock']>();
  for (const s of stock) pools.set(s.colour, [...(pools.get(s.colour) ?? []), s]);
  const shared = pools.get(null);
  const lines: Array<{ name: string; rows: ProductRow['stock'] | undefined }> = [
    ...colours.map((name) => ({ name, rows: pools.get(name) })),
    ...(shared ? [{ name: 'All colours', rows: shared }] : []),
  ];
  return (
    <ul className="space-y-0.5 text-xs" data-testid="product-stock">
      {lines.map(({ name, rows }) => (
        <li key={name} data-testid="colour-stock" className="whitespace-nowrap">
          <span className="font-medium">{name}</span>:{' '}
          {rows ? (
            <CompactCounts rows={rows} />
          ) : (
            <span className="text-muted">{shared ? 'from all colours' : 'not tracked'}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** "S 2 · M 0, sold out · L 5 (2 held)": every separator is text, so it reads the same aloud. */
function CompactCounts({ rows }: { rows: ProductRow['stock'] }) {
  const bySize = new Map(rows.map((s) => [s.size, s]));
  return (
    <>
      {sortSizes(rows.map((s) => s.size)).map((size, i) => {
        const s = bySize.get(size);
        if (!s) return null;
        return (
          <Fragment key={size}>
            {i > 0 ? ' · ' : null}
            {size} {s.onHand}
            {s.onHand <= s.reserved ? (
              <>
                , <span className="font-medium text-red-700">sold out</span>
              </>
            ) : null}
            {s.reserved > 0 ? <span className="text-muted"> ({s.reserved} held)</span> : null}
          </Fragment>
        );
      })}
    </>
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
