import { usePageTitle } from '../../lib/use-page-title';
import { ProductGrid } from './product-grid';
import { StoreBanner } from './store-banner';

export function HomePage() {
  usePageTitle(null);
  return (
    <>
      <section className="border-b border-stone-line bg-gradient-to-b from-sand/70 to-ivory">
        <div className="mx-auto max-w-7xl px-4 py-12 text-center sm:px-6 sm:py-16 lg:px-8">
          <h1 className="font-serif text-4xl text-ink sm:text-5xl">Welcome to the store</h1>
          <p className="mx-auto mt-4 max-w-2xl text-base text-muted sm:text-lg">
            Discover our latest collection of premium Pakistani fashion
          </p>
        </div>
      </section>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <StoreBanner />
        <ProductGrid />
      </div>
    </>
  );
}
