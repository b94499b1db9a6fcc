import { variantLabel } from '@shared/colours';
import { describeFitCm, type FitKey } from '@shared/fit-finder';
import { formatMoney } from '@shared/money';
import { struckRegularPrice } from '@shared/order-charges';

export type OrderLine = {
  title: string;
  /** The colour's name as bought; null or absent for a product without colours. */
  colour?: string | null;
  size: string | null;
  quantity: number;
  lineTotalMinor: number;
  /** How many of the line were given back (refunded); noted beside it when some were. */
  refundedQuantity?: number;
  /** The unit price charged; with the regular price, shown struck through when a sale applied. */
  unitPriceMinor?: number;
  /** The price before the sale; null or absent on lines from before sales (decision 0037). */
  regularUnitPriceMinor?: number | null;
  /** The line's share of the order's code, already taken off lineTotalMinor. */
  discountMinor?: number;
  saleName?: string | null;
  /** The fit finder's measurements the line was bought with (decision 0040); only the admin's detail has them. */
  fitCm?: Partial<Record<FitKey, number>> | null;
};

/** Under a line with a sale or a code share: "~~Rs 2,000~~ Rs 1,600 each · Eid sale", "Code −Rs 480". */
function LineSavings({ line, currency }: { line: OrderLine; currency: string }) {
  const unit = line.unitPriceMinor;
  const regular =
    unit === undefined
      ? null
      : struckRegularPrice({
          regularUnitPriceMinor: line.regularUnitPriceMinor ?? null,
          unitPriceMinor: unit,
        });
  const share = line.discountMinor ?? 0;
  if (regular === null && share === 0) return null;
  return (
    <span className="block text-xs text-muted" data-testid="order-line-savings">
      {regular !== null && unit !== undefined ? (
        <span className="block">
          <span className="sr-only">Regular price </span>
          <s>{formatMoney(regular, currency)}</s> <span className="sr-only">, sale price </span>
          <span className="text-maroon">{formatMoney(unit, currency)}</span> each
          {line.saleName ? ` · ${line.saleName}` : ''}
        </span>
      ) : null}
      {share > 0 ? (
        <span className="block" data-testid="order-line-code-discount">
          Code discount −{formatMoney(share, currency)}
        </span>
      ) : null}
    </span>
  );
}

/**
 * An order's lines (title, colour / size, quantity, line total), as the shopper's receipt and the admin show
 * them: "Lawn Kurta (Teal / M) × 1"; a line without a colour reads "Lawn Kurta (M) × 1" as it always did.
 */
export function OrderLines({
  lines,
  currency,
  className = '',
}: {
  lines: OrderLine[];
  currency: string;
  className?: string;
}) {
  return (
    <ul className={`divide-y divide-stone-line ${className}`}>
      {lines.map((l, i) => (
        // An order's lines are fixed once it is placed: their place in it is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <li key={i} className="flex justify-between gap-4 py-2" data-testid="order-line">
          <span>
            {l.title}
            {l.colour || l.size ? ` (${variantLabel(l.colour, l.size)})` : ''} × {l.quantity}
            {l.refundedQuantity ? (
              <span className="ml-2 rounded-full bg-stone-200 px-2 py-0.5 text-xs text-stone-800">
                {l.refundedQuantity === l.quantity ? 'refunded' : `${l.refundedQuantity} refunded`}
              </span>
            ) : null}
            <LineSavings line={l} currency={currency} />
            {l.fitCm ? (
              <span className="block text-xs text-muted" data-testid="order-line-fit">
                Fit finder: {describeFitCm(l.fitCm)}
              </span>
            ) : null}
          </span>
          <span>{formatMoney(l.lineTotalMinor, currency)}</span>
        </li>
      ))}
    </ul>
  );
}
