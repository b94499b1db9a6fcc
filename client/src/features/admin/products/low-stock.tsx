import { variantLabel } from '@shared/colours';
import { useId } from 'react';
import { trpc } from '../../../lib/trpc';

/** The sizes to reorder: at or under the settings' low-stock threshold, fewest left first (the Overview's). */
export function LowStock() {
  const headingId = useId();
  const low = trpc.admin.products.lowStock.useQuery();
  if (!low.data || low.data.items.length === 0) return null;
  return (
    <section
      id="low-stock"
      aria-labelledby={headingId}
      className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id={headingId} className="text-sm font-semibold text-amber-950">
        Low stock: {low.data.threshold} or fewer left
      </h2>
      <ul className="mt-2 grid gap-1 text-sm text-amber-950 sm:grid-cols-2" data-testid="low-stock">
        {low.data.items.map((item) => (
          <li key={`${item.productId}-${item.colour ?? ''}-${item.size}`}>
            {item.title} ({item.sku}) — {variantLabel(item.colour, item.size)}:{' '}
            <strong>{item.left === 0 ? 'sold out' : `${item.left} left`}</strong>
            {item.reserved > 0 ? ` (${item.reserved} held by open checkouts)` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
