import type { OrderDetail } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

/** Everything that happened to the order, oldest first: who did what, when. */
export function OrderTimeline({ order }: { order: OrderDetail }) {
  if (order.timeline.length === 0) return <p className="text-muted">Nothing recorded yet.</p>;
  return (
    <ol className="space-y-2 border-l-2 border-stone-line pl-4" data-testid="order-timeline">
      {order.timeline.map((entry, i) => (
        // Entries of one answer never reorder, and two may share a time and a kind.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <li key={i}>
          <p>
            <time dateTime={entry.at} className="text-xs text-muted">
              {dateTime.format(new Date(entry.at))}
            </time>{' '}
            <span className="font-medium">{entry.label}</span>
            {entry.detail ? <span> · {entry.detail}</span> : null}
          </p>
          <p className="text-xs text-muted">by {entry.actor}</p>
        </li>
      ))}
    </ol>
  );
}
