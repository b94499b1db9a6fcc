import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { trpc } from '../../../lib/trpc';
import { failureMessage } from './action-panel';
import { useAfterOrderChange } from './use-orders';

/**
 * admin.emails.resend arrives with the email outbox branch. Until it is merged the procedure is not in
 * AppRouter, so this reaches it through a narrowly typed view of the same tRPC proxy (the proxy builds the
 * path 'admin.emails.resend' at run time whatever the types say).
 * AFTER THE MERGE: replace `resendProcedure` with `trpc.admin.emails.resend` and delete the cast.
 */
type ResendProcedure = {
  useMutation: () => {
    mutate: (
      input: { id: string },
      handlers: { onSuccess: () => void; onError: (error: unknown) => void },
    ) => void;
    isPending: boolean;
  };
};
const resendProcedure = (trpc.admin as unknown as { emails: { resend: ResendProcedure } }).emails.resend;

/** Queues an order email again (a failed one, or one the shopper says never came). */
export function EmailResendButton({ emailId, subject }: { emailId: string; subject: string }) {
  const resend = resendProcedure.useMutation();
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
