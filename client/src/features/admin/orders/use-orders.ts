import type { OrderStatusName } from '@shared/orders';
import type { PaymentMethodName, PaymentStep } from '@shared/payment-methods';
import { toast } from '../../../lib/toast';
import { type RouterOutputs, trpc } from '../../../lib/trpc';

/** What the list is narrowed to; '' is "any". */
export type OrderFilters = {
  status: OrderStatusName | '';
  code: string;
  method: PaymentMethodName | '';
  step: PaymentStep | '';
};

/** The orders area's queries and mutations. Each change invalidates the list and the order it touched. */
export function useOrderList({ status, code, method, step }: OrderFilters) {
  const list = trpc.admin.orders.list.useInfiniteQuery(
    {
      status: status || undefined,
      code: code.trim() || undefined,
      method: method || undefined,
      step: step || undefined,
      limit: 25,
    },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  // Every page answers the same figures for the filters; the first page's are shown.
  return { list, items: list.data?.pages.flatMap((p) => p.items), summary: list.data?.pages[0]?.summary };
}

export type OrdersSummary = NonNullable<ReturnType<typeof useOrderList>['summary']>;

export type OrderRow = NonNullable<ReturnType<typeof useOrderList>['items']>[number];

/** admin.orders.byId as the server answers it (src/modules/orders/admin-order-detail.ts). */
export type OrderDetail = RouterOutputs['admin']['orders']['byId'];

export type OrderEmailStatus = OrderDetail['emails'][number]['status'];

export function useOrder(id: string) {
  return trpc.admin.orders.byId.useQuery({ id });
}

/** What every change to an order refreshes: the list (its stage, its refunded marker) and the order. */
export function useAfterOrderChange() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.admin.orders.list.invalidate(), utils.admin.orders.byId.invalidate()]);
}

/** The forms show why the server refused (mutateAsync rejects); here the toast and the refresh. */
export function useShipOrder() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.ship.useMutation({
    onSuccess(result) {
      toast.success(`Order #${result.number} marked as shipped`);
      void after();
    },
    // Refused because someone else moved the order on: the dialog then shows where it is now.
    onError() {
      void after();
    },
  });
}

export function useMarkDelivered() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.markDelivered.useMutation({
    onSuccess(result) {
      toast.success(`Order #${result.number} marked as delivered`);
      void after();
    },
    onError() {
      void after();
    },
  });
}

export function useCancelOrder() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.cancel.useMutation({
    onSuccess(result) {
      toast.success(`Order #${result.number} cancelled`);
      void after();
    },
    onError() {
      void after();
    },
  });
}

export function useRefundOrder() {
  const after = useAfterOrderChange();
  return trpc.admin.orders.refund.useMutation({
    onSuccess(result) {
      toast.success(
        result.status === 'pending'
          ? `Refund of order #${result.number} sent; waiting for the payment provider to confirm it`
          : `Order #${result.number} refunded`,
      );
      void after();
    },
    // A refused refund is still recorded (as failed): the dialog's lists must show it.
    onError() {
      void after();
    },
  });
}

/** Asks Stripe about orders still waiting for a payment answer. */
export function useReconcileOrders() {
  const utils = trpc.useUtils();
  return trpc.admin.orders.reconcile.useMutation({
    onSuccess(result) {
      toast.success(`Checked ${result.checked} waiting order(s) with Stripe; ${result.updated} updated.`);
      void utils.admin.orders.invalidate();
    },
    onError() {
      toast.error('Could not reach Stripe to check orders');
    },
  });
}
