import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { trpc } from '../../../lib/trpc';
import { failureMessage } from './action-panel';
import { useAfterOrderChange } from './use-orders';

/** Queues an order email again (a failed one, or one the shopper says never came). */
export function EmailResendButton({ emailId, subject }: { emailId: string; subject: string }) {
  const resend = trpc.admin.emails.resend.useMutation();
  const after = useAfterOrderChange();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        className="px-3 py-1 text-xs"
        aria-label={`Resend “${subject}”`}
        disabled={resend.isPending}
        onClick={() => {
          setResult(null);
          resend.mutate(
            { id: emailId },
            {
              onSuccess: () => {
                setResult({ ok: true, message: 'Queued again.' });
                void after();
              },
              onError: (error) => setResult({ ok: false, message: failureMessage(error) }),
            },
          );
        }}
      >
        {resend.isPending ? 'Resending…' : 'Resend'}
      </Button>
      {result ? (
        <span role={result.ok ? 'status' : 'alert'} className={`text-xs ${result.ok ? '' : 'text-red-800'}`}>
          {result.message}
        </span>
      ) : null}
    </span>
  );
}
