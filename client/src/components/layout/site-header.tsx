import { ShoppingBag } from 'lucide-react';
import { Link } from 'wouter';
import { paths } from '../../app/paths';
import { useCartCount } from '../../features/cart/cart-store';
import { useSiteSettings } from '../../features/site/use-site-settings';

export function SiteHeader() {
  const settings = useSiteSettings();
  const count = useCartCount();
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
          <Link
            href={paths.checkout()}
            className="relative inline-flex h-10 w-10 items-center justify-center rounded-full text-ink transition hover:bg-sand"
            aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
            data-testid="cart-button"
          >
            <ShoppingBag aria-hidden="true" className="h-5 w-5" />
            {count > 0 ? (
              <span
                className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-maroon px-1 text-[11px] font-semibold text-ivory"
                data-testid="cart-count"
                aria-hidden="true"
              >
                {count > 99 ? '99+' : count}
              </span>
            ) : null}
          </Link>
        </nav>
      </div>
    </header>
  );
}
