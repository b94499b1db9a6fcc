import { ShoppingBag } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useCartCount } from '../../lib/cart/cart-store';

// The panel's code (lines, quote, totals) is not needed before the cart opens, so not with the home page: it
// is fetched when the shopper heads for the button (pointer over or focus), at the latest on the click.
const loadCartPanel = () => import('./cart-panel');
const CartPanel = lazy(() => loadCartPanel().then((m) => ({ default: m.CartPanel })));
const preloadCartPanel = () => void loadCartPanel().catch(() => undefined);

/** The header's cart button and its dropdown. Escape or a click outside closes it; focus returns to the button. */
export function CartMenu() {
  const [open, setOpen] = useState(false);
  const count = useCartCount();
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  return (
    <div className="relative" ref={root}>
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((o) => !o)}
        onPointerEnter={preloadCartPanel}
        onFocus={preloadCartPanel}
        aria-expanded={open}
        aria-controls={panelId}
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
      </button>
      {open ? (
        <section
          id={panelId}
          aria-label="Cart"
          className="absolute right-0 z-40 mt-2 w-[min(24rem,calc(100vw-2rem))] rounded-2xl border border-stone-line bg-white p-4 shadow-xl"
        >
          <Suspense fallback={<div className="skeleton h-20 rounded-lg" aria-hidden="true" />}>
            <CartPanel onNavigate={() => setOpen(false)} />
          </Suspense>
        </section>
      ) : null}
    </div>
  );
}
