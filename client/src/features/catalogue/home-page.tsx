import { usePageTitle } from '../../lib/use-page-title';
import { ProductGrid } from './product-grid';
import { StoreBanner } from './store-banner';

export function HomePage() {
  usePageTitle(null, { canonical: true });
  return (
    <>
      <section className="border-b border-stone-line bg-gradient-to-b from-sand/70 to-ivory">
        {/* Compact on phones, so the first products show in the first screen. */}
        <div className="mx-auto max-w-7xl px-4 py-5 text-center sm:px-6 sm:py-16 lg:px-8">
          <h1 className="font-serif text-2xl text-ink sm:text-5xl">Welcome to the store</h1>
          <p className="mx-auto mt-1 max-w-2xl text-sm text-muted sm:mt-4 sm:text-lg">
            Discover our latest collection of premium Pakistani fashion
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
