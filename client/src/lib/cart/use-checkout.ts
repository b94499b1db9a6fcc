import { toast } from '../toast';
import { trpc } from '../trpc';

/** Starts a payment for some lines and sends the browser to the page the server returns. */
export function useCheckout() {
  return trpc.checkout.createSession.useMutation({
    onSuccess({ url }) {
      window.location.assign(url);
    },
    onError(error) {
      toast.error(error.message || 'Could not process checkout. Please try again.');
    },
  });
}
