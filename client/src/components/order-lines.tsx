import { formatMoney } from '../lib/money';

export type OrderLine = {
  productId: string;
  title: string;
  size: string | null;
  quantity: number;
  lineTotalMinor: number;
};

/** An order's lines (title, size, quantity, line total), as the shopper's receipt and the admin show them. */
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
      {lines.map((l) => (
        <li key={`${l.productId}-${l.size}`} className="flex justify-between gap-4 py-2">
          <span>
            {l.title}
            {l.size ? ` (${l.size})` : ''} × {l.quantity}
          </span>
          <span>{formatMoney(l.lineTotalMinor, currency)}</span>
        </li>
      ))}
    </ul>
  );
}
