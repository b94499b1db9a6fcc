import { Link } from 'wouter';
import { paths } from '../../lib/paths';
import { useSiteSettings } from '../../lib/use-site-settings';
import { CartMenu } from './cart-menu';

export function SiteHeader() {
  const settings = useSiteSettings();
  const storeName = settings.data?.storeName ?? '';
  const specialOrderUrl = settings.data?.specialOrderUrl;

  return (
    <header className="sticky top-0 z-30 border-b border-stone-line bg-ivory/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-3 sm:gap-4 sm:px-6 lg:px-8">
        {/* A long store name on a narrow phone wraps onto a second line (the header's height holds two)
            rather than ending in an ellipsis that hides half of it (WCAG 1.4.10). */}
        <Link
          href={paths.home()}
          className="line-clamp-2 min-w-0 font-serif text-base leading-tight tracking-[0.02em] wrap-break-word text-ink uppercase min-[400px]:text-lg sm:text-2xl sm:tracking-[0.12em]"
          aria-label={storeName ? `${storeName}, home` : 'Home'}
        >
          {storeName || <span className="skeleton inline-block h-6 w-40 rounded" aria-hidden="true" />}
        </Link>
        <nav aria-label="Store" className="flex flex-none items-center gap-1 sm:gap-3">
          {specialOrderUrl ? (
            <a
              href={specialOrderUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="rounded-full border border-maroon px-2 py-1.5 text-[11px] font-medium whitespace-nowrap text-maroon transition hover:bg-maroon hover:text-ivory sm:px-4 sm:text-sm sm:tracking-wide"
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
