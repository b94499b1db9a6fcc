import { EMAIL_STATUS_LABEL } from '@shared/emails';
import { Button } from '../../../components/ui/button';
import { type OrderEmailRow, useOrderEmails, useResendEmail } from './use-order-emails';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

const KIND_LABEL: Record<OrderEmailRow['kind'], string> = {
  order_confirmation: 'Order confirmation',
  order_shipped: 'Shipped',
  order_refund: 'Refund',
};

function when(row: OrderEmailRow): string {
  if (row.status === 'sent' && row.sentAt) return `sent ${dateTime.format(new Date(row.sentAt))}`;
  if (row.status === 'queued' && row.nextAttemptAt && row.attempts > 0)
    return `next attempt ${dateTime.format(new Date(row.nextAttemptAt))}`;
  return `queued ${dateTime.format(new Date(row.createdAt))}`;
}

/**
 * The emails sent about one order, for the order's admin view: what each is, to whom, whether it went out
 * (and why not), and a button to send it again.
 */
export function OrderEmails({ orderId }: { orderId: string }) {
  const emails = useOrderEmails(orderId);
  const resend = useResendEmail();
  return (
    <section aria-labelledby={`emails-${orderId}`}>
      <h3 id={`emails-${orderId}`} className="font-medium">
        Emails
      </h3>
      {emails.isPending ? (
        <div className="skeleton h-10 rounded" aria-hidden="true" />
      ) : emails.isError ? (
        <p role="alert">{emails.error.message}</p>
      ) : emails.data.items.length === 0 ? (
        <p className="text-muted">No emails for this order.</p>
      ) : (
        <ul className="space-y-2">
          {emails.data.items.map((e) => (
            <li key={e.id} className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p>
                  {KIND_LABEL[e.kind]} to <span className="break-all">{e.to}</span>
                </p>
                <p className="text-xs text-muted">
                  {EMAIL_STATUS_LABEL[e.status]} · {when(e)}
                  {e.attempts > 1 ? ` · ${e.attempts} attempts` : ''}
                </p>
                {e.lastError ? <p className="break-words text-xs text-red-700">{e.lastError}</p> : null}
              </div>
              {e.status !== 'sending' ? (
                <Button
                  variant="secondary"
                  className="px-3 py-1 text-xs"
                  disabled={resend.isPending}
                  onClick={() => resend.mutate({ id: e.id })}
                  aria-label={`Resend the ${KIND_LABEL[e.kind].toLowerCase()} email`}
                >
                  Resend
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
