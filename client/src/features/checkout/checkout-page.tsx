import { MAX_LINE_QUANTITY } from '@shared/checkout';
import { formatMoney } from '@shared/money';
import type { PaymentMethodName, PlacedOfflineOrder } from '@shared/payment-methods';
import { Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { LinePrice } from '../../components/line-price';
import { Button, buttonClass } from '../../components/ui/button';
import { cartCode, codeForRequest } from '../../lib/cart/cart-code';
import { cart, linesForOrder, linesForQuote } from '../../lib/cart/cart-store';
import { lineKey, lineName, lineVariant, quotedLineOf } from '../../lib/cart/line-names';
import { needsColourChoice, problemText } from '../../lib/cart/problem-text';
import { useCartQuote } from '../../lib/cart/use-cart-quote';
import { useCheckout } from '../../lib/cart/use-checkout';
import { paths } from '../../lib/paths';
import { toast } from '../../lib/toast';
import { usePageTitle } from '../../lib/use-page-title';
import { DiscountCodeField } from './discount-code-field';
import { OfflineOrderForm } from './offline-order-form';
import { PaymentMethodChoice } from './payment-method-choice';
import { type CartRequest, chosenMethod, usePaymentMethods } from './use-payment-methods';

export function CheckoutPage() {
  usePageTitle('Review Your Order');
  const [, navigate] = useLocation();
  const { lines, quote, code, codeError, setCodeError } = useCartQuote();
  const checkout = useCheckout();
  const data = quote.data;
  // The code goes along only when it applies: a refused one is shown, and the total shown is without it.
  const request: CartRequest = { lines: linesForQuote(lines), ...(data?.code ? codeForRequest(code) : {}) };
  const offer = usePaymentMethods(lines.length > 0 && data ? request : null);
  // Placing the order sends what the quote does and the fit finder's measurements (decision 0040).
  const order: CartRequest = { ...request, lines: linesForOrder(lines) };
  const [chosen, setChosen] = useState<PaymentMethodName | null>(null);
  // Set once a cash-on-delivery or bank-transfer order is placed: the cart it empties is not an empty cart.
  const placed = useRef(false);

  useEffect(() => {
    if (lines.length === 0 && !checkout.isPending && !checkout.isSuccess && !placed.current) {
      toast.error('Your cart is empty. Please add items before checkout.');
      navigate(paths.home(), { replace: true });
    }
  }, [lines.length, checkout.isPending, checkout.isSuccess, navigate]);

  if (lines.length === 0) return null;
  const blocking = data?.lines.filter((l) => l.problem && l.problem !== 'price_changed') ?? [];
  const mixed = (data?.currencies.length ?? 0) > 1;

  const pay = () => {
    if (lines.length === 0) {
      toast.error('Please add items before checking out.');
      return;
    }
    checkout.mutate(order);
  };

  // A card-only store (the default) shows no choice: its checkout reads and works as it always did.
  const selected = offer.offersChoice ? chosenMethod(offer.methods, chosen) : null;
  const offline =
    selected && (selected.id === 'cash_on_delivery' || selected.id === 'bank_transfer')
      ? { ...selected, id: selected.id }
      : null;
  // Before a country is chosen the card pays as it always did (its payment page asks where to ship), so a
  // shopper abroad never has to answer a question about cash on delivery; after, as the country allows.
  const needsCountry = offer.offersChoice && offer.country === '' && !offer.cardOffered;
  const cardRefused =
    offer.offersChoice &&
    (offer.country === '' ? needsCountry : selected?.id !== 'card' || !selected.available);
  const onPlaced = (order: PlacedOfflineOrder) => {
    placed.current = true;
    navigate(order.orderPath);
    // The lines and the code went with this order; the next cart starts without them.
    cart.clear();
    cartCode.remove();
    toast.success(`Order #${order.number} placed.`);
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="font-serif text-3xl">Review Your Order</h1>
      {quote.isError ? (
        <p role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-800">
          Could not price your cart: {quote.error.message}
        </p>
      ) : null}
      <ul className="mt-8 divide-y divide-stone-line border-y border-stone-line">
        {lines.map((line) => {
          const q = quotedLineOf(data?.lines, line);
          const label = lineName(line, q);
          return (
            <li
              key={lineKey(line)}
              // Phones: picture and details side by side, the controls on a row of their own under the
              // details, so the title keeps the width it needs. From sm the controls sit at the right.
              className="grid grid-cols-[5rem_minmax(0,1fr)] gap-x-4 gap-y-3 py-5 sm:grid-cols-[5rem_minmax(0,1fr)_auto]"
              data-testid="checkout-line"
            >
              <img
                src={q?.image ?? '/placeholder.svg'}
                alt=""
                width={80}
                height={80}
                className="h-20 w-20 flex-none rounded-xl bg-sand object-cover"
              />
              <div className="min-w-0">
                <p className="font-medium">
                  {q?.title ?? <span className="skeleton inline-block h-4 w-40 rounded" />}
                </p>
                {line.colour ? (
                  // "Teal / M": the colour and size of this line, as the emails and the order page name them.
                  <p className="text-sm text-muted" data-testid="checkout-line-variant">
                    {lineVariant(line, q)}
                  </p>
                ) : line.size ? (
                  <p className="text-sm text-muted">Size {line.size}</p>
                ) : null}
                {q?.unitPriceMinor != null && q.currency ? (
                  <LinePrice line={q} />
                ) : !data ? (
                  // The price's line is kept while the cart is priced, so the lines under it stay put.
                  <p className="text-sm" aria-hidden="true">
                    <span className="skeleton inline-block h-4 w-24 rounded align-middle" />
                  </p>
                ) : null}
                {q?.problem ? (
                  <p className="mt-1 text-sm text-red-700" role="status">
                    {problemText({ problem: q.problem, left: q.left, colour: q.colour })}{' '}
                    {needsColourChoice(q.problem) ? (
                      <Link href={paths.product(line.productId)} className="underline">
                        Choose a colour<span className="sr-only"> for {q.title ?? 'this item'}</span>
                      </Link>
                    ) : null}
                    {q.problem === 'price_changed' && q.unitPriceMinor != null ? (
                      <button
                        type="button"
                        className="underline"
                        onClick={() => cart.acceptPrice(line.productId, line.colour, q.unitPriceMinor ?? 0)}
                      >
                        OK, keep it
                      </button>
                    ) : null}
                  </p>
                ) : null}
              </div>
              <div className="col-start-2 flex items-center gap-3 sm:col-start-3 sm:items-start">
                <label className="text-sm">
                  <span className="sr-only">Quantity of {label}</span>
                  <select
                    value={line.quantity}
                    onChange={(e) => cart.setQuantity(line.productId, line, Number(e.target.value))}
                    className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
                  >
                    {Array.from({ length: MAX_LINE_QUANTITY }, (_, i) => i + 1).map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </label>
                <p className="ml-auto min-w-24 text-right font-medium" data-testid="line-total">
                  {q?.lineTotalMinor != null && q.currency ? formatMoney(q.lineTotalMinor, q.currency) : ''}
                </p>
                <button
                  type="button"
                  onClick={() => cart.remove(line.productId, line)}
                  className="rounded p-1.5 text-muted hover:text-red-700"
                  aria-label={`Remove ${label}`}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {mixed ? (
        <p role="alert" className="mt-4 rounded-xl bg-amber-50 p-4 text-sm text-amber-900">
          Your cart mixes currencies ({data?.currencies.map((c) => c.toUpperCase()).join(' and ')}). Please
          check out items of one currency at a time.
        </p>
      ) : null}
      <DiscountCodeField
        code={code}
        quote={quote.isPlaceholderData ? undefined : data}
        error={codeError}
        setError={setCodeError}
        pending={quote.isFetching}
      />
      {data?.currency && data.discountMinor > 0 ? (
        <dl className="mt-6 space-y-1 text-sm">
          <div className="flex items-center justify-between">
            <dt>Subtotal</dt>
            <dd data-testid="checkout-subtotal">{formatMoney(data.subtotalMinor, data.currency)}</dd>
          </div>
          <div className="flex items-center justify-between text-emerald-800">
            <dt>Discount{data.code ? ` (${data.code.code})` : ''}</dt>
            <dd data-testid="checkout-discount">−{formatMoney(data.discountMinor, data.currency)}</dd>
          </div>
        </dl>
      ) : null}
      <div className="mt-4 flex items-center justify-between text-lg font-semibold">
        <span>Total</span>
        <span data-testid="checkout-total">
          {data?.currency ? formatMoney(data.totalMinor, data.currency) : '—'}
        </span>
      </div>
      {offline ? null : (
        <p className="mt-1 text-right text-xs text-muted">
          {data?.code?.freeShipping
            ? 'Shipping is free with your code.'
            : 'Shipping is added on the payment page.'}
        </p>
      )}
      {offer.offersChoice ? (
        <PaymentMethodChoice
          offer={offer}
          selected={selected}
          onChoose={setChosen}
          cartTotalMinor={data && selected && data.currency === selected.currency ? data.totalMinor : null}
        />
      ) : null}
      {offline ? (
        <>
          <OfflineOrderForm
            method={offline.id}
            methodLabel={offline.label}
            country={offer.country}
            cart={order}
            blocked={!data || blocking.length > 0 || mixed || offer.stale || !offline.available}
            onPlaced={onPlaced}
          />
          <div className="mt-4 flex justify-end">
            <Link href={paths.home()} className={buttonClass('secondary')}>
              Continue Shopping
            </Link>
          </div>
        </>
      ) : (
        <div className="mt-8 flex flex-wrap justify-end gap-3">
          <Link href={paths.home()} className={buttonClass('secondary')}>
            Continue Shopping
          </Link>
          <Button
            onClick={pay}
            disabled={checkout.isPending || !data || blocking.length > 0 || mixed || cardRefused}
            aria-describedby={needsCountry ? 'checkout-country-first' : undefined}
          >
            {checkout.isPending ? 'Processing...' : 'Proceed to Payment'}
          </Button>
          {needsCountry ? (
            <p id="checkout-country-first" className="w-full text-right text-sm text-muted">
              Choose where we deliver to see how you can pay.
            </p>
          ) : null}
        </div>
      )}
    </div>
  );
}
