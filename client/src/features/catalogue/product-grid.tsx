import { Button } from '../../components/ui/button';
import { trpc } from '../../lib/trpc';
import { ProductCard, ProductCardSkeleton } from './product-card';

const PAGE_SIZE = 24;

export function ProductGrid() {
  const query = trpc.catalogue.list.useInfiniteQuery(
    { limit: PAGE_SIZE },
    { getNextPageParam: (last) => last.nextCursor, retry: 3, retryDelay: (attempt) => 1000 * (attempt + 1) },
  );

  if (query.isPending) return <ProductGridSkeleton />;
  if (query.isError && !query.data) {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-900">
        <p>Error loading products: {query.error.message || 'Unknown error occurred'}</p>
        <Button variant="secondary" className="mt-4" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const products = query.data.pages.flatMap((p) => p.items);
  if (products.length === 0) {
    return (
      <p className="py-16 text-center text-muted">No products are available yet. Please check back soon.</p>
    );
  }

  return (
    <section aria-labelledby="catalogue-heading">
      <h2 id="catalogue-heading" className="sr-only">
        Products
      </h2>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="product-grid">
        {products.map((product, i) => (
          <ProductCard key={product.id} product={product} eager={i < 3} />
        ))}
      </div>
      {query.hasNextPage ? (
        <div className="mt-10 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </section>
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
