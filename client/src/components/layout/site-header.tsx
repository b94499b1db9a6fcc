import { Link } from 'wouter';
import { paths } from '../../app/paths';
import { CartMenu } from '../../features/cart/cart-menu';
import { useSiteSettings } from '../../features/site/use-site-settings';

export function SiteHeader() {
  const settings = useSiteSettings();
  const storeName = settings.data?.storeName ?? '';
  const specialOrderUrl = settings.data?.specialOrderUrl;

  return (
    <header className="sticky top-0 z-30 border-b border-stone-line bg-ivory/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link
          href={paths.home()}
          className="font-serif text-xl tracking-[0.12em] text-ink uppercase sm:text-2xl"
          aria-label={storeName ? `${storeName}, home` : 'Home'}
        >
          {storeName || <span className="skeleton inline-block h-6 w-40 rounded" aria-hidden="true" />}
        </Link>
        <nav aria-label="Store" className="flex items-center gap-2 sm:gap-3">
          {specialOrderUrl ? (
            <a
              href={specialOrderUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="rounded-full border border-maroon px-3 py-1.5 text-xs font-medium tracking-wide text-maroon transition hover:bg-maroon hover:text-ivory sm:px-4 sm:text-sm"
            >
              Special Order Request
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          ) : null}
          <CartMenu />
        </nav>
      </div>
    </header>
  );
}
