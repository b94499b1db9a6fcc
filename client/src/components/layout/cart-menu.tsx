import { ShoppingBag, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { cart, useCartCount } from '../../lib/cart/cart-store';
import { problemText } from '../../lib/cart/problem-text';
import { useCartQuote } from '../../lib/cart/use-cart-quote';
import { formatMoney } from '../../lib/money';
import { paths } from '../../lib/paths';
import { buttonClass } from '../ui/button';

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
          <CartPanel onNavigate={() => setOpen(false)} />
        </section>
      ) : null}
    </div>
  );
}

function CartPanel({ onNavigate }: { onNavigate: () => void }) {
  const { lines, quote } = useCartQuote();
  if (lines.length === 0) return <p className="py-6 text-center text-muted">Your cart is empty</p>;
  const data = quote.data;
  return (
    <div>
      <ul className="max-h-80 divide-y divide-stone-line overflow-y-auto">
        {lines.map((line) => {
          const q = data?.lines.find((l) => l.productId === line.productId && l.size === line.size);
          return (
            <li key={`${line.productId}-${line.size}`} className="flex gap-3 py-3" data-testid="cart-line">
              <img
                src={q?.image ?? '/placeholder.svg'}
                alt=""
                width={56}
                height={56}
                className="h-14 w-14 flex-none rounded-lg bg-sand object-cover"
              />
              <div className="min-w-0 flex-1 text-sm">
                {/* The whole name, on as many lines as it takes (two or three for the demo's longest on a
                    320 px phone): cut at the panel's edge, two products of one line could not be told apart. */}
                <p className="font-medium wrap-break-word">{q?.title ?? '…'}</p>
                <p className="text-muted">
                  {line.size ? `Size ${line.size} · ` : ''}Qty {line.quantity}
                </p>
                {q?.problem ? (
                  <p className="mt-1 text-xs text-red-700">
                    {problemText({ problem: q.problem, left: q.left })}
                  </p>
                ) : null}
              </div>
              <div className="flex flex-col items-end gap-1 text-sm">
                <span className="font-medium">
                  {q?.lineTotalMinor != null && q.currency ? formatMoney(q.lineTotalMinor, q.currency) : ''}
                </span>
                <button
                  type="button"
                  onClick={() => cart.remove(line.productId, line.size)}
                  className="rounded p-1 text-muted hover:text-red-700"
                  aria-label={`Remove ${q?.title ?? 'item'}${line.size ? ` (${line.size})` : ''}`}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <div className="mt-3 flex items-center justify-between border-t border-stone-line pt-3 font-medium">
        <span>Total</span>
        <span data-testid="cart-total">
          {data?.currency ? formatMoney(data.totalMinor, data.currency) : '—'}
        </span>
      </div>
      <Link href={paths.checkout()} onClick={onNavigate} className={buttonClass('primary', 'mt-4 w-full')}>
        Proceed to Checkout
      </Link>
    </div>
  );
}
