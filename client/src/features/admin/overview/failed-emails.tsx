import { EMAIL_STATUS_LABEL } from '@shared/emails';
import { useId } from 'react';
import { EmailResendButton } from '../orders/email-resend-button';
import { useFailedEmails } from './use-overview';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

/**
 * The emails that failed for good (the "Emails failed" count's list), each with why and a button to send it
 * again once the cause is fixed. Shown only when there are some.
 */
export function FailedEmails({ count }: { count: number }) {
  const headingId = useId();
  const failed = useFailedEmails(count > 0);
  if (count === 0 || !failed.data || failed.data.items.length === 0) return null;
  return (
    <section
      id="failed-emails"
      aria-labelledby={headingId}
      className="mt-6 rounded-xl border border-red-200 bg-red-50 p-4"
    >
      <h2 id={headingId} className="text-sm font-semibold text-red-950">
        Emails that failed
      </h2>
      <ul className="mt-2 grid gap-2 text-sm text-red-950" data-testid="failed-emails">
        {failed.data.items.map((email) => (
          <li key={email.id} className="flex flex-wrap items-start justify-between gap-2">
            {/* Addresses and SMTP replies have no spaces to wrap at: they break anywhere at 320 px. */}
            <span className="min-w-0 [overflow-wrap:anywhere]">
              {email.orderNumber === null ? '' : `Order #${email.orderNumber}: `}“{email.subject}” to{' '}
              {email.to}, {dateTime.format(new Date(email.createdAt))}. {EMAIL_STATUS_LABEL[email.status]}
              {email.lastError ? `: ${email.lastError}` : ''}
            </span>
            <EmailResendButton emailId={email.id} subject={email.subject} />
          </li>
        ))}
      </ul>
    </section>
  );
}
