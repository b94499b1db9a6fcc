import { EmailResendButton } from './email-resend-button';
import type { OrderDetail, OrderEmailStatus } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

const STATUS_LABEL: Record<OrderEmailStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

const statusStyle: Record<OrderEmailStatus, string> = {
  queued: 'bg-amber-100 text-amber-900',
  sending: 'bg-sky-100 text-sky-900',
  sent: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
};

/** The emails the store sent (or is sending) about the order, each with where it stands. */
export function OrderEmails({ order }: { order: OrderDetail }) {
  if (order.emails.length === 0) return <p className="text-muted">No emails for this order.</p>;
  return (
    <ul className="divide-y divide-stone-line border-y border-stone-line" data-testid="order-emails">
      {order.emails.map((email) => (
        <li key={email.id} className="flex flex-wrap items-start justify-between gap-3 py-2">
          <div className="min-w-0 flex-1">
            <p className="font-medium">{email.subject}</p>
            <p className="text-xs text-muted">
              To {email.to} · queued {dateTime.format(new Date(email.createdAt))}
              {email.sentAt ? ` · sent ${dateTime.format(new Date(email.sentAt))}` : ''}
              {email.attempts > 1 ? ` · ${email.attempts} attempts` : ''}
            </p>
            {email.status === 'failed' ? (
              <p className="text-xs text-red-800">Failed: {email.lastError ?? 'no reason given'}</p>
            ) : null}
            {email.status !== 'sent' && email.nextAttemptAt ? (
              <p className="text-xs text-muted">
                Next attempt {dateTime.format(new Date(email.nextAttemptAt))}
              </p>
            ) : null}
          </div>
          <div className="flex items-center gap-2">
            <span className={`rounded-full px-2 py-0.5 text-xs ${statusStyle[email.status]}`}>
              {STATUS_LABEL[email.status]}
            </span>
            {email.status === 'sent' || email.status === 'failed' ? (
              <EmailResendButton emailId={email.id} subject={email.subject} />
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
