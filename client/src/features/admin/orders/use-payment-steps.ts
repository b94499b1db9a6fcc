import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { useAfterOrderChange } from './use-orders';

/**
 * The steps the owner moves a cash-on-delivery or bank-transfer order through (decision 0038). Each answers
 * the updated order (confirming answers whether this click did it); a refusal (someone else moved it first) still refreshes, so the dialog shows where the
 * order is now. The forms show the refusal's words.
 */
export function useConfirmCashOnDelivery() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.confirmCashOnDelivery.useMutation({
    onSuccess(result) {
      toast.success(
        result.outcome === 'already_confirmed'
          ? `Order #${result.number} was confirmed already`
          : `Order #${result.number} confirmed`,
      );
      void after();
    },
    onError() {
      void after();
    },
  });
}

export function useRecordCashCollected() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.recordCashCollected.useMutation({
    onSuccess(order) {
      toast.success(`Cash collected for order #${order.number}`);
      void after();
    },
    onError() {
      void after();
    },
  });
}

export function useReturnedToOrigin() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.returnedToOrigin.useMutation({
    onSuccess(order) {
      toast.success(`Order #${order.number} returned to origin`);
      void after();
    },
    onError() {
      void after();
    },
  });
}

export function useRecordTransfer() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.recordTransfer.useMutation({
    onSuccess(order) {
      toast.success(`Transfer recorded for order #${order.number}`);
      void after();
    },
    onError() {
      void after();
    },
  });
}

/** The owner trusts a phone again: its next cash-on-delivery orders are taken. */
export function useLiftPhoneRefusal() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.liftPhoneRefusal.useMutation({
    onSuccess(_result, input) {
      toast.success(`Orders from ${input.phone} are taken again`);
      void after();
    },
  });
}
