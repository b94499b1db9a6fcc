import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/** The emails of one order, newest first, with their delivery state (admin.emails.list). */
export function useOrderEmails(orderId: string) {
  return trpc.admin.emails.list.useQuery({ orderId, limit: 50 });
}

export type OrderEmailRow = NonNullable<ReturnType<typeof useOrderEmails>['data']>['items'][number];

/** Queues an email again (a failed one after its cause was fixed, or a sent one the customer lost). */
export function useResendEmail() {
  const utils = trpc.useUtils();
  return trpc.admin.emails.resend.useMutation({
    onSuccess() {
      toast.success('Email queued again; it goes out in a moment');
      void utils.admin.emails.list.invalidate();
    },
    onError(err) {
      toast.error(err.data?.code === 'CONFLICT' ? err.message : 'Could not queue the email again');
    },
  });
}
