import { formatMoney } from '@shared/money';
import { OrderLines } from '../../components/order-lines';
import { trpc } from '../../lib/trpc';

/**
 * What the demo payment is for, as Stripe's page shows it beside its form: the order's lines at the prices
 * charged, the code's discount, shipping and the total. All read from the order the server made (its
 * snapshot), never reckoned here from the cart's prices, so the page says what completing it records.
 */
const SUMMARY_HEIGHT = 'mt-8 min-h-[236px] sm:min-h-[216px]';

export function DemoOrderSummary({ sessionId }: { sessionId: string }) {
  const order = trpc.checkout.demoPayment.useQuery({ sessionId }, { retry: 1 });
  if (order.isError) {
    return (
      <p role="alert" className="mt-6 text-center text-sm text-red-800">
        Could not load this order: {order.error.message}
      </p>
    );
  }
  const data = order.data;
  // The height of a one-line order (its title wraps on a phone), kept as the summary's least height, so the
  // form under it is not pushed down when the order arrives.
  if (!data) return <div className={`skeleton ${SUMMARY_HEIGHT} rounded-2xl`} aria-hidden="true" />;
  const money = (minor: number) => formatMoney(minor, data.currency);
  return (
    <section
      className={`${SUMMARY_HEIGHT} rounded-2xl border border-stone-line bg-white/70 p-5 text-sm`}
      aria-labelledby="demo-order-heading"
      data-testid="demo-order-summary"
    >
      <h2 id="demo-order-heading" className="font-serif text-lg">
        Order #{data.number}
      </h2>
      <OrderLines lines={data.lines} currency={data.currency} className="mt-2" />
      {data.salesMinor > 0 ? (
        <p className="pb-2 text-xs text-muted" data-testid="demo-sales">
          Sale prices save {money(data.salesMinor)} on the regular prices.
        </p>
      ) : null}
      <dl className="mt-2 space-y-1 border-t border-stone-line pt-3">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd data-testid="demo-subtotal">{money(data.subtotalMinor)}</dd>
        </div>
        {data.discountMinor > 0 ? (
          <div className="flex justify-between text-emerald-800">
            <dt>{data.discountLabel}</dt>
            <dd data-testid="demo-discount">−{money(data.discountMinor)}</dd>
          </div>
        ) : null}
        <div className="flex justify-between">
          <dt>Shipping</dt>
          <dd data-testid="demo-shipping">{money(data.shippingMinor)}</dd>
        </div>
        <div className="flex justify-between border-t border-stone-line pt-2 text-base font-semibold">
          <dt>Total</dt>
          <dd data-testid="demo-total">{money(data.totalMinor)}</dd>
        </div>
      </dl>
    </section>
  );
}
