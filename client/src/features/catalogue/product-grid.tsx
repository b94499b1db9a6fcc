import {
  CATALOGUE_SORTS,
  type CatalogueSort,
  countLabel,
  type ProductCard as ProductCardData,
} from '@shared/catalogue';
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ProductCard, ProductCardSkeleton } from '../../components/catalogue/product-card';
import { Button } from '../../components/ui/button';
import { trpc } from '../../lib/trpc';
import { useEarlyInput } from '../../lib/use-early-input';
import { type CatalogueView, hasFilters, toFilter, useCatalogueView } from './catalogue-url';
import { FilterPanel } from './filter-panel';
import { FiltersDrawer } from './filters-drawer';
import { SearchBox } from './search-box';

const PAGE_SIZE = 24;

const SORT_LABELS: Record<CatalogueSort, string> = {
  featured: 'Featured',
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  relevance: 'Best match',
};

const EMPTY: CatalogueView = {
  q: '',
  manufacturers: [],
  sizes: [],
  colors: [],
  tags: [],
  priceMin: undefined,
  priceMax: undefined,
  inStock: false,
  onSale: false,
  sort: undefined,
  page: 1,
};

export function ProductGrid() {
  const { view, update } = useCatalogueView();
  const filter = toFilter(view);
  const products = trpc.catalogue.search.useInfiniteQuery(
    { ...filter, sort: view.sort, limit: PAGE_SIZE },
    {
      getNextPageParam: (last) => last.nextOffset ?? undefined,
      placeholderData: keepPreviousData,
      retry: 3,
      retryDelay: (attempt) => 1000 * (attempt + 1),
    },
  );
  const facets = trpc.catalogue.facets.useQuery(filter, { placeholderData: keepPreviousData });

  // A shared link with page=N shows N pages: fetch them one after another.
  const loadedPages = products.data?.pages.length ?? 0;
  useEffect(() => {
    if (loadedPages > 0 && loadedPages < view.page && products.hasNextPage && !products.isFetchingNextPage) {
      void products.fetchNextPage();
    }
  }, [loadedPages, view.page, products.hasNextPage, products.isFetchingNextPage, products.fetchNextPage]);

  const firstPage = products.data?.pages[0];
  const total = firstPage ? countLabel(firstPage.total, firstPage.totalCapped, 'product', 'products') : null;
  const results = firstPage ? countLabel(firstPage.total, firstPage.totalCapped, 'result', 'results') : null;
  const active =
    view.manufacturers.length +
    view.sizes.length +
    view.colors.length +
    view.tags.length +
    (view.priceMin !== undefined || view.priceMax !== undefined ? 1 : 0) +
    (view.inStock ? 1 : 0) +
    (view.onSale ? 1 : 0);
  const panel = <FilterPanel view={view} facets={facets.data} onChange={(change) => update(change)} />;
  const clearAll = () => update(EMPTY);
  const sortValue = view.sort ?? (view.q.trim() ? 'relevance' : 'featured');
  // An order chosen before the page was hydrated is applied.
  const sortSelect = useEarlyInput<HTMLSelectElement>((select) => {
    if (select.value !== sortValue) update({ sort: select.value as CatalogueSort });
  });

  return (
    <section aria-labelledby="catalogue-heading" className="lg:grid lg:grid-cols-[15rem_1fr] lg:gap-10">
      <aside aria-label="Filters" className="hidden lg:block">
        <div className="sticky top-24 max-h-[calc(100vh-7rem)] overflow-y-auto pr-2">
          <div className="mb-4 flex items-center justify-between">
            <p className="font-serif text-xl">Filters</p>
            {hasFilters(view) ? (
              <button
                type="button"
                onClick={clearAll}
                className="text-sm text-maroon underline-offset-2 hover:underline"
              >
                Clear all
              </button>
            ) : null}
          </div>
          {panel}
        </div>
      </aside>

      <div>
        <h2 id="catalogue-heading" className="sr-only">
          Products
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <SearchBox value={view.q} onSearch={(q) => update({ q }, { replace: true })} />
          <FiltersDrawer resultCount={results} active={active}>
            {panel}
          </FiltersDrawer>
          <label className="flex items-center gap-2 text-sm">
            <span className="text-muted">Sort</span>
            <select
              ref={sortSelect}
              value={sortValue}
              onChange={(e) => update({ sort: e.target.value as CatalogueSort })}
              className="rounded-full border border-stone-line bg-white px-3 py-2 text-sm"
            >
              {CATALOGUE_SORTS.filter((s) => s !== 'relevance' || view.q.trim()).map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="mt-4 min-h-5 text-sm text-muted" aria-live="polite" data-testid="result-count">
          {total ?? ''}
        </p>

        <div className="mt-4">
          <Results
            state={products.isPending ? 'pending' : products.isError && !products.data ? 'error' : 'ready'}
            errorMessage={products.error?.message ?? ''}
            items={products.data?.pages.flatMap((p) => p.items) ?? []}
            hasNext={products.hasNextPage}
            fetchingNext={products.isFetchingNextPage}
            stale={products.isPlaceholderData}
            busy={products.isFetching}
            onRetry={() => void products.refetch()}
            onClear={clearAll}
            filtered={hasFilters(view)}
            onMore={() => update({ page: loadedPages + 1 }, { replace: true })}
          />
        </div>
      </div>
    </section>
  );
}

function Results(props: {
  state: 'pending' | 'error' | 'ready';
  errorMessage: string;
  items: ProductCardData[];
  hasNext: boolean;
  fetchingNext: boolean;
  stale: boolean;
  busy: boolean;
  onRetry: () => void;
  onClear: () => void;
  filtered: boolean;
  onMore: () => void;
}) {
  if (props.state === 'pending') return <ProductGridSkeleton />;
  if (props.state === 'error') {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-900">
        <p>Error loading products: {props.errorMessage || 'Unknown error occurred'}</p>
        <Button variant="secondary" className="mt-4" onClick={props.onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  if (props.items.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-stone-line py-16 text-center">
        <p className="font-serif text-2xl">No products match</p>
        <p className="mt-2 text-muted">
          {props.filtered
            ? 'Try other words or fewer filters.'
            : 'No products are available yet. Please check back soon.'}
        </p>
        {props.filtered ? (
          <Button variant="secondary" className="mt-6" onClick={props.onClear}>
            Clear filters
          </Button>
        ) : null}
      </div>
    );
  }
  return (
    <>
      <div
        className={`grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3 ${props.stale ? 'opacity-60' : ''}`}
        data-testid="product-grid"
        aria-busy={props.busy}
      >
        {props.items.map((product, i) => (
          <ProductCard key={product.id} product={product} eager={i < 3} priority={i === 0} />
        ))}
      </div>
      {props.hasNext ? (
        <div className="mt-10 flex justify-center">
          <Button variant="secondary" onClick={props.onMore} disabled={props.fetchingNext}>
            {props.fetchingNext ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </>
  );
}

export function ProductGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="grid-skeleton">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  );
}
