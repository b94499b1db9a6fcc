import { variantLabel } from '@shared/colours';
import { formatMoney } from '@shared/money';
import { struckRegularPrice } from '@shared/order-charges';
import { useParams } from 'wouter';
import { PostalAddress } from '../../../components/postal-address';
import { usePageTitle } from '../../../lib/use-page-title';
import { SlipFrame, SlipNotReady, slipDay } from './slip-frame';
import { type OrderDetail, useOrder } from './use-orders';

/**
 * /admin/orders/:id/packing-slip: what goes in the parcel, to print and put in it. No prices, except on an
 * order with a sale or a code: then what each line was charged and the discount are on it (issue 41), so the
 * parcel's paper agrees with the shopper's email to the minor unit.
 */
export function PackingSlipPage() {
  const { id = '' } = useParams<{ id: string }>();
  const order = useOrder(id);
  usePageTitle(order.data ? `Packing slip, order #${order.data.number}` : 'Packing slip');

  if (order.isError) return <SlipNotReady failure={`Could not load the order: ${order.error.message}`} />;
  if (!order.data) return <SlipNotReady failure={null} />;
  const o = order.data;
  // The column says "Size" as it always did, and "Colour / size" once a line of the order has a colour.
  const coloured = o.lines.some((l) => l.colour);
  const priced = o.discountMinor > 0 || o.lines.some((l) => struckRegularPrice(l) !== null);
  return (
    <SlipFrame
      title={`Packing slip · Order #${o.number}`}
      aside={
        <>
          Ordered {slipDay.format(new Date(o.paidAt ?? o.createdAt))}
          {o.fulfilment === 'cancelled' ? <strong className="block">CANCELLED: do not ship</strong> : null}
        </>
      }
    >
      {o.paymentMethod === 'cash_on_delivery' && o.totalMinor !== null && COLLECT_AT_DOOR.has(o.step) ? (
        <p
          className="mt-6 rounded-lg border-4 border-ink px-4 py-3 text-center text-2xl font-bold"
          data-testid="packing-slip-collect"
        >
          Collect {formatMoney(o.totalMinor, o.currency, { decimals: 'always' })} in cash
          {o.phone ? <span className="block text-base font-normal">Phone: {o.phone}</span> : null}
        </p>
      ) : null}
      <section aria-labelledby="slip-ship-to" className="mt-6">
        <h2 id="slip-ship-to" className="text-sm font-semibold tracking-wide uppercase">
          Ship to
        </h2>
        {o.shippingAddress ? (
          <PostalAddress address={o.shippingAddress} className="mt-2" />
        ) : (
          <p className="mt-2">No shipping address on this order.</p>
        )}
      </section>
      <table className="mt-8 w-full border-collapse text-left text-sm" data-testid="packing-slip-lines">
        <caption className="sr-only">Items in the parcel</caption>
        <thead>
          <tr className="border-b border-ink">
            <th scope="col" className="py-2 pr-4">
              Item
            </th>
            <th scope="col" className="py-2 pr-4">
              {coloured ? 'Colour / size' : 'Size'}
            </th>
            <th scope="col" className="py-2 text-right">
              Quantity
            </th>
            {priced ? (
              <>
                <th scope="col" className="py-2 pl-4 text-right">
                  Price
                </th>
                <th scope="col" className="py-2 pl-4 text-right">
                  Charged
                </th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {o.lines.map((l) => {
            const packed = l.quantity - l.refundedQuantity;
            return (
              <tr key={l.id} className="border-b border-stone-line">
                <td className="py-2 pr-4">{l.title}</td>
                <td className="py-2 pr-4">{variantLabel(l.colour, l.size) || '—'}</td>
                <td className="py-2 text-right">
                  {packed}
                  {l.refundedQuantity > 0 ? (
                    <span className="block text-xs">
                      ({l.quantity} ordered, {l.refundedQuantity} refunded)
                    </span>
                  ) : null}
                </td>
                {priced ? <PriceCells line={l} currency={o.currency} /> : null}
              </tr>
            );
          })}
        </tbody>
        {priced ? (
          <tfoot data-testid="packing-slip-totals">
            <SlipTotal label="Subtotal" amount={formatMoney(o.subtotalMinor, o.currency)} />
            {o.discountMinor > 0 ? (
              <SlipTotal label={o.discountLabel} amount={`−${formatMoney(o.discountMinor, o.currency)}`} />
            ) : null}
            {o.adjustmentsMinor !== 0 ? (
              <SlipTotal
                label="Shipping and adjustments"
                amount={formatMoney(o.adjustmentsMinor, o.currency)}
              />
            ) : null}
            <SlipTotal label="Total paid" amount={formatMoney(o.paidMinor, o.currency)} strong />
          </tfoot>
        ) : null}
      </table>
    </SlipFrame>
  );
}

type SlipLine = OrderDetail['lines'][number];

/** The steps of a cash-on-delivery order whose parcel still has its cash to collect at the door. */
const COLLECT_AT_DOOR = new Set<OrderDetail['step']>([
  'awaiting_confirmation',
  'confirmed',
  'shipped',
  'delivered',
]);

/** The unit price (the regular one struck through under a sale, with its name) and what the line was charged. */
function PriceCells({ line, currency }: { line: SlipLine; currency: string }) {
  const regular = struckRegularPrice(line);
  return (
    <>
      <td className="py-2 pl-4 text-right">
        {regular !== null ? (
          <>
            <span className="sr-only">Regular price </span>
            <s>{formatMoney(regular, currency)}</s> <span className="sr-only">, sale price </span>
          </>
        ) : null}
        {formatMoney(line.unitPriceMinor, currency)}
        {regular !== null && line.saleName ? <span className="block text-xs">{line.saleName}</span> : null}
      </td>
      <td className="py-2 pl-4 text-right">
        {formatMoney(line.lineTotalMinor, currency)}
        {line.discountMinor > 0 ? (
          <span className="block text-xs">
            after code discount −{formatMoney(line.discountMinor, currency)}
          </span>
        ) : null}
      </td>
    </>
  );
}

function SlipTotal({ label, amount, strong = false }: { label: string; amount: string; strong?: boolean }) {
  return (
    <tr className={strong ? 'font-semibold' : undefined}>
      <th scope="row" colSpan={4} className="py-1 text-right font-normal">
        {strong ? <strong>{label}</strong> : label}
      </th>
      <td className="py-1 pl-4 text-right">{amount}</td>
    </tr>
  );
}
