import { listingTitle, parseView } from '@shared/listing';
import { useMemo } from 'react';
import { useSearch } from 'wouter';
import { usePageTitle } from '../../lib/use-page-title';
import { ProductGrid } from './product-grid';
import { StoreBanner } from './store-banner';

export function HomePage() {
  const search = useSearch();
  // A search or filtered listing says what it lists, in the tab and the heading (the server's head says the
  // same: src/http/seo.ts); the whole catalogue is the store's welcome.
  const listing = useMemo(() => listingTitle(parseView(search)), [search]);
  usePageTitle(listing, { canonical: true });
  return (
    <>
      <section className="border-b border-stone-line bg-gradient-to-b from-sand/70 to-ivory">
        {/* Compact on phones, so the first products show in the first screen. */}
        <div className="mx-auto max-w-7xl px-4 py-5 text-center sm:px-6 sm:py-16 lg:px-8">
          <h1 className="font-serif text-2xl break-words text-ink sm:text-5xl" data-testid="page-heading">
            {listing ?? 'Welcome to the store'}
          </h1>
          <p className="mx-auto mt-1 max-w-2xl text-sm text-muted sm:mt-4 sm:text-lg">
            {listing
              ? 'From our collection of premium Pakistani fashion'
              : 'Discover our latest collection of premium Pakistani fashion'}
          </p>
        </div>
      </section>
      <div className="mx-auto max-w-7xl px-4 py-4 sm:px-6 sm:py-10 lg:px-8">
        <StoreBanner />
        <ProductGrid />
      </div>
    </>
  );
}
