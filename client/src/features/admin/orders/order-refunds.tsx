import { variantLabel } from '@shared/colours';
import { formatMoney } from '@shared/money';
import { REFUND_STATUS_LABEL } from '@shared/orders';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ActionPanel } from './action-panel';
import { RefundForm } from './refund-form';
import type { OrderDetail } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

const refundStyle: Record<OrderDetail['refunds'][number]['status'], string> = {
  pending: 'bg-amber-100 text-amber-900',
  succeeded: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
};

/** The refunds of an order, and the button that opens a new one while something is left to give back. */
export function OrderRefunds({ order, onDone }: { order: OrderDetail; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const lineTitle = (lineId: number) => {
    const line = order.lines.find((l) => l.id === lineId);
    if (!line) return `line ${lineId}`;
    return line.colour || line.size ? `${line.title} (${variantLabel(line.colour, line.size)})` : line.title;
  };

  return (
    <div className="space-y-3">
      {order.can.refund ? (
        <Button
          variant={open ? 'primary' : 'secondary'}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          Refund
        </Button>
      ) : null}
      {open && order.can.refund ? (
        <ActionPanel id={panelId} title="New refund">
          <RefundForm
            order={order}
            onCancel={() => setOpen(false)}
            onDone={(message) => {
              setOpen(false);
              onDone(message);
            }}
          />
        </ActionPanel>
      ) : null}
      {order.refunds.length === 0 ? (
        <p className="text-muted">No refunds.</p>
      ) : (
        <ul className="divide-y divide-stone-line border-y border-stone-line" data-testid="refunds">
          {order.refunds.map((r) => (
            <li key={r.id} className="py-2">
              <p className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">{formatMoney(r.amountMinor, r.currency)}</span>
                <span className={`rounded-full px-2 py-0.5 text-xs ${refundStyle[r.status]}`}>
                  {REFUND_STATUS_LABEL[r.status]}
                </span>
              </p>
              <p className="text-xs text-muted">
                {dateTime.format(new Date(r.createdAt))} · {r.adminEmail}
                {r.method === 'manual'
                  ? ` · paid back by hand${r.paidVia ? ` via ${r.paidVia}` : ''}`
                  : r.provider === 'demo'
                    ? ' · demo, no money moved'
                    : ''}
              </p>
              {r.lines.length > 0 ? (
                <p className="text-xs">
                  {r.lines.map((l) => `${lineTitle(l.lineId)} × ${l.quantity}`).join(', ')}
                </p>
              ) : null}
              {r.reason ? <p className="text-xs">Reason: {r.reason}</p> : null}
              {r.note ? <p className="text-xs">Note: {r.note}</p> : null}
              {r.status === 'failed' && r.failure ? (
                <p className="text-xs text-red-800">Failed: {r.failure}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
