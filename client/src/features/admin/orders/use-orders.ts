import type { OrderStatusName } from '@shared/orders';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/** The orders area's queries and mutations. */
export function useOrderList(status: OrderStatusName | '') {
  const list = trpc.admin.orders.list.useInfiniteQuery(
    { status: status || undefined, limit: 25 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  return { list, items: list.data?.pages.flatMap((p) => p.items) };
}

export type OrderRow = NonNullable<ReturnType<typeof useOrderList>['items']>[number];

export function useOrder(id: string) {
  return trpc.admin.orders.byId.useQuery({ id });
}

export type OrderDetail = NonNullable<ReturnType<typeof useOrder>['data']>;

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
