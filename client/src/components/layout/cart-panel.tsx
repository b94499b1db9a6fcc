import { formatMoney } from '@shared/money';
import { Trash2 } from 'lucide-react';
import { Link } from 'wouter';
import { cart } from '../../lib/cart/cart-store';
import { lineKey, lineName, lineVariant, quotedLineOf } from '../../lib/cart/line-names';
import { needsColourChoice, problemText } from '../../lib/cart/problem-text';
import { useCartQuote } from '../../lib/cart/use-cart-quote';
import { paths } from '../../lib/paths';
import { LinePrice } from '../line-price';
import { buttonClass } from '../ui/button';

/** The cart dropdown's contents: its own chunk, loaded when the cart is about to open (cart-menu.tsx). */
export function CartPanel({ onNavigate }: { onNavigate: () => void }) {
  const { lines, quote } = useCartQuote();
  if (lines.length === 0) return <p className="py-6 text-center text-muted">Your cart is empty</p>;
  const data = quote.data;
  return (
    <div>
      <ul className="max-h-80 divide-y divide-stone-line overflow-y-auto">
        {lines.map((line) => {
          const q = quotedLineOf(data?.lines, line);
          const variant = lineVariant(line, q);
          return (
            <li key={lineKey(line)} className="flex gap-3 py-3" data-testid="cart-line">
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
                <p className="text-muted" data-testid="cart-line-variant">
                  {/* "Teal / M" for a colour line; a line without a colour reads "Size M" as it always did. */}
                  {line.colour ? `${variant} · ` : line.size ? `Size ${line.size} · ` : ''}Qty {line.quantity}
                </p>
                {q ? <LinePrice line={q} /> : null}
                {q?.problem ? (
                  <p className="mt-1 text-xs text-red-700">
                    {problemText({ problem: q.problem, left: q.left, colour: q.colour })}
                    {needsColourChoice(q.problem) ? (
                      <>
                        {' '}
                        <Link href={paths.product(line.productId)} onClick={onNavigate} className="underline">
                          Choose a colour<span className="sr-only"> for {q.title ?? 'this item'}</span>
                        </Link>
                      </>
                    ) : null}
                  </p>
                ) : null}
              </div>
              <div className="flex flex-col items-end gap-1 text-sm">
                <span className="font-medium">
                  {q?.lineTotalMinor != null && q.currency ? formatMoney(q.lineTotalMinor, q.currency) : ''}
                </span>
                <button
                  type="button"
                  onClick={() => cart.remove(line.productId, line)}
                  className="rounded p-1 text-muted hover:text-red-700"
                  aria-label={`Remove ${lineName(line, q)}`}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {data?.currency && data.discountMinor > 0 && data.code ? (
        <p className="mt-3 flex items-center justify-between text-sm text-emerald-800">
          <span>Code {data.code.code}</span>
          <span data-testid="cart-discount">−{formatMoney(data.discountMinor, data.currency)}</span>
        </p>
      ) : null}
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
