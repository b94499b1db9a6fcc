import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/** The owner's payment method settings (decision 0038), as stored: amounts in minor units. */
export function usePaymentMethodSettings() {
  return trpc.admin.settings.paymentMethods.useQuery(undefined, { gcTime: 0 });
}

/** Saves them; the form shows the server's field errors, the toast says how it went. */
export function useSavePaymentMethods() {
  const utils = trpc.useUtils();
  return trpc.admin.settings.updatePaymentMethods.useMutation({
    onSuccess() {
      toast.success('Payment methods saved');
      void utils.admin.settings.paymentMethods.invalidate();
    },
    onError(err) {
      toast.error(
        err.data?.code === 'BAD_REQUEST'
          ? 'Please correct the highlighted fields.'
          : `Failed to save payment methods: ${err.message}`,
      );
    },
  });
}
