import type { DashboardPeriodInput } from '@shared/dashboard';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { SizeBars } from './charts/size-bars';
import { rangeLabel } from './figures';
import { useProductSearch, useSellThrough } from './use-overview';

/**
 * Sell-through per size (units only: staff see it too) for the whole catalogue or one product found by the
 * admin's product search, with the suggested split of the next order from the maker.
 */
export function SellThroughPanel({ period }: { period: DashboardPeriodInput }) {
  const id = useId();
  const [product, setProduct] = useState<{ id: string; title: string } | null>(null);
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const [piecesText, setPiecesText] = useState('50');
  const pieces = Number(piecesText);
  const piecesValid = Number.isInteger(pieces) && pieces >= 1 && pieces <= 100_000;
  const [reorderPieces, setReorderPieces] = useState(50);
  const found = useProductSearch(q);
  const view = useSellThrough({
    ...period,
    productId: product?.id,
    reorderPieces,
  });
  const label = product ? product.title : 'the whole catalogue';
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-10" data-testid="sell-through">
      <h2 id={`${id}-heading`} className="font-serif text-2xl">
        Sell-through per size
      </h2>
      <p className="mt-1 text-sm text-muted">
        Units sold in the period against what there was to sell (sold and still on hand), for {label}
        {view.data ? `, ${rangeLabel(view.data.range)}` : ''}.
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-4 text-sm">
        <form
          aria-label="Find a product"
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setQ(searchText.trim());
          }}
        >
          <label className="flex flex-col gap-1" htmlFor={`${id}-search`}>
            Product
            <input
              id={`${id}-search`}
              type="search"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              placeholder="Title or SKU"
              maxLength={200}
              autoComplete="off"
              className="w-48 rounded-lg border border-stone-line bg-white px-2 py-1.5"
            />
          </label>
          <Button type="submit" variant="secondary">
            Find
          </Button>
          {product ? (
            <Button type="button" variant="secondary" onClick={() => setProduct(null)}>
              Whole catalogue
            </Button>
          ) : null}
        </form>
        <form
          aria-label="Reorder"
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (piecesValid) setReorderPieces(pieces);
          }}
        >
          <label className="flex flex-col gap-1" htmlFor={`${id}-pieces`}>
            Pieces to reorder
            <input
              id={`${id}-pieces`}
              type="number"
              inputMode="numeric"
              min={1}
              max={100_000}
              step={1}
              value={piecesText}
              onChange={(e) => setPiecesText(e.target.value)}
              aria-invalid={piecesValid ? undefined : true}
              aria-describedby={piecesValid ? undefined : `${id}-pieces-error`}
              className="w-28 rounded-lg border border-stone-line bg-white px-2 py-1.5"
            />
          </label>
          <Button type="submit" variant="secondary" disabled={!piecesValid}>
            Split
          </Button>
          {piecesValid ? null : (
            <p id={`${id}-pieces-error`} role="alert" className="text-xs text-red-700">
              A whole number from 1 to 100,000.
            </p>
          )}
        </form>
      </div>
      {q && found.data ? (
        <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label="Products found">
          {found.data.items.length === 0 ? <li className="text-muted">No product matches “{q}”.</li> : null}
          {found.data.items.map((p) => (
            <li key={p.id}>
              <Button
                type="button"
                variant="secondary"
                aria-pressed={product?.id === p.id}
                onClick={() => setProduct({ id: p.id, title: p.title })}
              >
                {p.title}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {view.isError ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load the sell-through: {view.error.message}
        </p>
      ) : null}
      {view.data ? (
        <>
          <SizeBars sizes={view.data.sizes} label={view.data.title ?? 'the whole catalogue'} />
          <p className="mt-3 text-sm" data-testid="reorder-mix">
            {view.data.sizes.length === 0
              ? 'No sizes to split a reorder between.'
              : `A reorder of ${view.data.reorderPieces} pieces: ${view.data.sizes.map((s) => `${s.size} ${s.reorder}`).join(', ')}.`}
          </p>
        </>
      ) : (
        <div className="skeleton mt-4 h-40 rounded" aria-hidden="true" />
      )}
    </section>
  );
}
