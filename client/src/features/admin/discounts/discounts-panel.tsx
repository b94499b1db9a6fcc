import { formatMoney } from '@shared/money';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useSignedInAdmin } from '../account/use-account';
import { DiscountDialog } from './discount-form';
import { type ListedDiscount, useDiscounts, useEndDiscount } from './use-discounts';

const STATUS_LABEL = {
  scheduled: 'Scheduled',
  running: 'Running',
  ended: 'Ended',
  used_up: 'Used up',
} as const;
const STATUS_CLASS = {
  scheduled: 'bg-sky-100 text-sky-900',
  running: 'bg-emerald-100 text-emerald-900',
  ended: 'bg-stone-200 text-stone-800',
  used_up: 'bg-amber-100 text-amber-900',
} as const;

/**
 * The Discounts tab: every sale and code with its status, uses, and the revenue and discount of the paid
 * orders it gave. Owners create, edit and end; staff see the list only (the server refuses them the rest).
 */
export default function DiscountsPanel() {
  const list = useDiscounts();
  const isOwner = useSignedInAdmin().data?.role === 'owner';
  const [editing, setEditing] = useState<ListedDiscount | 'new' | null>(null);
  if (list.isPending) return <div className="skeleton h-64 rounded" aria-hidden="true" />;
  if (list.isError) return <p role="alert">{list.error.message}</p>;
  const { items, timeZone, currency } = list.data;
  return (
    <section aria-labelledby="discounts-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="discounts-heading" className="font-serif text-2xl">
            Sales and codes
          </h2>
          <p className="text-sm text-muted">Times are in the shop’s time zone, {timeZone}.</p>
        </div>
        {isOwner ? <Button onClick={() => setEditing('new')}>New sale or code</Button> : null}
      </div>
      {items.length === 0 ? (
        <p className="text-sm text-muted">No sales or codes yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label="Sales and codes">
            <thead>
              <tr className="border-b border-stone-line">
                <th scope="col" className="py-2 pr-3">
                  Name
                </th>
                <th scope="col" className="py-2 pr-3">
                  Status
                </th>
                <th scope="col" className="py-2 pr-3">
                  Takes off
                </th>
                <th scope="col" className="py-2 pr-3">
                  Runs
                </th>
                <th scope="col" className="py-2 pr-3">
                  Uses
                </th>
                <th scope="col" className="py-2 pr-3">
                  Orders, revenue and discount given
                </th>
                {isOwner ? (
                  <th scope="col" className="py-2">
                    Actions
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <DiscountRow key={d.id} d={d} isOwner={isOwner} onEdit={() => setEditing(d)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing !== null ? (
        <DiscountDialog
          discount={editing === 'new' ? null : editing}
          currency={currency}
          timeZone={timeZone}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function valueText(d: ListedDiscount): string {
  const what =
    d.value.type === 'percent'
      ? `${d.value.percent}%`
      : d.value.type === 'fixed'
        ? formatMoney(d.value.amountMinor, d.value.currency)
        : 'Free shipping';
  if (d.kind === 'sale') return `${what} off each item`;
  return d.value.type === 'free_shipping'
    ? what
    : `${what} off ${d.target === 'order' ? 'the order' : 'the items'}`;
}

function DiscountRow({ d, isOwner, onEdit }: { d: ListedDiscount; isOwner: boolean; onEdit: () => void }) {
  const end = useEndDiscount();
  const label = d.kind === 'code' ? `${d.name} (${d.code})` : d.name;
  const finished = d.status === 'ended';
  return (
    <tr className="border-b border-stone-line align-top" data-testid="discount-row">
      <th scope="row" className="py-2 pr-3 font-medium">
        {d.name}
        <span className="block text-xs font-normal text-muted">
          {d.kind === 'code' ? `Code ${d.code}` : 'Sale'}
        </span>
      </th>
      <td className="py-2 pr-3">
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[d.status]}`}
          data-testid="discount-status"
        >
          {STATUS_LABEL[d.status]}
        </span>
      </td>
      <td className="py-2 pr-3">{valueText(d)}</td>
      <td className="py-2 pr-3">
        {d.form.startsAt.replace('T', ' ')} – {d.form.endsAt ? d.form.endsAt.replace('T', ' ') : 'no end'}
      </td>
      <td className="py-2 pr-3" data-testid="discount-uses">
        {d.kind === 'code' ? `${d.uses}${d.maxUses === null ? '' : ` of ${d.maxUses}`}` : '—'}
      </td>
      <td className="py-2 pr-3">
        {d.stats.length === 0
          ? 'No paid orders yet'
          : d.stats.map((s) => (
              <span key={s.currency} className="block">
                {s.orders} {s.orders === 1 ? 'order' : 'orders'}, {formatMoney(s.revenueMinor, s.currency)}{' '}
                revenue, {formatMoney(s.discountMinor, s.currency)} off
              </span>
            ))}
      </td>
      {isOwner ? (
        <td className="py-2">
          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" className="px-3 py-1.5" onClick={onEdit} aria-label={`Edit ${label}`}>
              Edit
            </Button>
            {!finished ? (
              <Button
                variant="ghost"
                className="px-3 py-1.5 text-red-800"
                disabled={end.isPending}
                aria-label={`End ${label}`}
                onClick={() => {
                  if (
                    window.confirm(`End ${label} now? It stops applying at once and cannot be restarted.`)
                  ) {
                    end.mutate({ id: d.id });
                  }
                }}
              >
                End
              </Button>
            ) : null}
          </div>
        </td>
      ) : null}
    </tr>
  );
}
