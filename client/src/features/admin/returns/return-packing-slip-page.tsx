import { variantLabel } from '@shared/colours';
import { formatMoney } from '@shared/money';
import { useParams } from 'wouter';
import { PostalAddress } from '../../../components/postal-address';
import { usePageTitle } from '../../../lib/use-page-title';
import { SlipFrame, SlipNotReady, slipDay } from '../orders/slip-frame';
import { useReturnPackingSlip } from './use-returns';

/**
 * /admin/returns/:id/packing-slip: what goes in an exchange's parcel (the replacement), where it goes and,
 * on a cash-on-delivery order, the price difference the courier collects. Printed as the order's slip is
 * (slip-frame.tsx); no other money is on it.
 */
export function ReturnPackingSlipPage() {
  const { id = '' } = useParams<{ id: string }>();
  const slip = useReturnPackingSlip(id);
  usePageTitle(slip.data ? `Packing slip, exchange for order #${slip.data.orderNumber}` : 'Packing slip');

  if (slip.isError) return <SlipNotReady failure={`Could not load the exchange: ${slip.error.message}`} />;
  if (!slip.data) return <SlipNotReady failure={null} />;
  const s = slip.data;
  const coloured = s.lines.some((l) => l.colour);
  const skus = s.lines.some((l) => l.sku);
  return (
    <SlipFrame
      title={`Packing slip · Exchange for order #${s.orderNumber}`}
      aside={`Exchange asked ${slipDay.format(new Date(s.createdAt))}`}
      testId="return-packing-slip"
    >
      {s.collectOnDeliveryMinor !== null ? (
        <p
          className="mt-6 rounded-lg border-4 border-ink px-4 py-3 text-center text-2xl font-bold"
          data-testid="return-packing-slip-collect"
        >
          Collect {formatMoney(s.collectOnDeliveryMinor, s.currency, { decimals: 'always' })} in cash
          <span className="block text-base font-normal">The price difference of the exchange</span>
        </p>
      ) : null}
      <p className="mt-6" data-testid="return-packing-slip-instructions">
        {s.instructions}
      </p>
      <section aria-labelledby="slip-ship-to" className="mt-6">
        <h2 id="slip-ship-to" className="text-sm font-semibold tracking-wide uppercase">
          Ship to
        </h2>
        {s.shipTo.address ? (
          <PostalAddress address={s.shipTo.address} className="mt-2" />
        ) : (
          <p className="mt-2">{s.shipTo.name ?? 'No shipping address on this order.'}</p>
        )}
        {s.shipTo.phone ? <p className="mt-1">Phone: {s.shipTo.phone}</p> : null}
      </section>
      {s.carrier || s.trackingNumber ? (
        <p className="mt-4 text-sm">
          Shipped with {s.carrier ?? '—'}, tracking number{' '}
          <span className="font-mono">{s.trackingNumber ?? '—'}</span>
        </p>
      ) : null}
      <table
        className="mt-8 w-full border-collapse text-left text-sm"
        data-testid="return-packing-slip-lines"
      >
        <caption className="sr-only">Replacement items in the parcel</caption>
        <thead>
          <tr className="border-b border-ink">
            <th scope="col" className="py-2 pr-4">
              Item
            </th>
            {skus ? (
              <th scope="col" className="py-2 pr-4">
                SKU
              </th>
            ) : null}
            <th scope="col" className="py-2 pr-4">
              {coloured ? 'Colour / size' : 'Size'}
            </th>
            <th scope="col" className="py-2 text-right">
              Quantity
            </th>
          </tr>
        </thead>
        <tbody>
          {s.lines.map((l, i) => (
            // Lines of one exchange never reorder; two may share a title and size (different colours bought).
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            <tr key={i} className="border-b border-stone-line">
              <td className="py-2 pr-4">{l.title}</td>
              {skus ? <td className="py-2 pr-4 font-mono">{l.sku ?? '—'}</td> : null}
              <td className="py-2 pr-4">{variantLabel(l.colour, l.size) || '—'}</td>
              <td className="py-2 text-right">{l.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </SlipFrame>
  );
}
