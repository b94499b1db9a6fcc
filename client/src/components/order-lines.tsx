import { variantLabel } from '@shared/colours';
import { formatMoney } from '@shared/money';

export type OrderLine = {
  title: string;
  /** The colour's name as bought; null or absent for a product without colours. */
  colour?: string | null;
  size: string | null;
  quantity: number;
  lineTotalMinor: number;
  /** How many of the line were given back (refunded); noted beside it when some were. */
  refundedQuantity?: number;
};

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
          </span>
          <span>{formatMoney(l.lineTotalMinor, currency)}</span>
        </li>
      ))}
    </ul>
  );
}
