import type {
  FulfilmentName,
  OrderStatusName,
  PostalAddress,
  RefundStatusName,
  Shipment,
} from '@shared/orders';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/** The orders area's queries and mutations. Each change invalidates the list and the order it touched. */
export function useOrderList(status: OrderStatusName | '') {
  const list = trpc.admin.orders.list.useInfiniteQuery(
    { status: status || undefined, limit: 25 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  return { list, items: list.data?.pages.flatMap((p) => p.items) };
}

export type OrderRow = NonNullable<ReturnType<typeof useOrderList>['items']>[number];

export type OrderEmailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/**
 * What the order dialog reads of admin.orders.byId (src/modules/orders/admin-order-detail.ts). Until the email
 * outbox branch is merged, the module byId imports is missing on this branch and tRPC's output type of byId
 * degrades to { [key: string]: any }, so useOrder asserts this shape (`as`: only a gross mismatch fails).
 * AFTER THE MERGE: write `select: (order): OrderDetail => order` there, so any drift between this and the
 * server fails the type check (or drop this type and infer it from the query).
 */
export type OrderDetail = {
  id: string;
  number: number;
  status: OrderStatusName;
  fulfilment: FulfilmentName;
  stage: string;
  paymentMode: 'stripe' | 'demo';
  currency: string;
  subtotalMinor: number;
  totalMinor: number | null;
  paidMinor: number;
  refundedMinor: number;
  refundPendingMinor: number;
  refundableMinor: number;
  customerEmail: string | null;
  customerName: string | null;
  shippingAddress: PostalAddress | null;
  billingAddress: unknown;
  stripeSessionId: string | null;
  createdAt: string;
  paidAt: string | null;
  shipment: Shipment | null;
  deliveredAt: string | null;
  cancelledAt: string | null;
  lines: Array<{
    id: number;
    productId: string;
    title: string;
    size: string | null;
    quantity: number;
    refundedQuantity: number;
    unitPriceMinor: number;
    lineTotalMinor: number;
    image: string | null;
  }>;
  refunds: Array<{
    id: string;
    amountMinor: number;
    currency: string;
    status: RefundStatusName;
    provider: 'stripe' | 'demo';
    reason: string | null;
    failure: string | null;
    adminEmail: string;
    lines: Array<{ lineId: number; quantity: number }>;
    createdAt: string;
  }>;
  emails: Array<{
    id: string;
    kind: string;
    to: string;
    subject: string;
    status: OrderEmailStatus;
    attempts: number;
    lastError: string | null;
    createdAt: string;
    sentAt: string | null;
    nextAttemptAt: string | null;
  }>;
  timeline: Array<{ at: string; kind: string; label: string; actor: string; detail: string | null }>;
  events: Array<{ id: string; type: string; outcome: string; receivedAt: string }>;
  customerPageUrl: string | null;
  can: { ship: boolean; markDelivered: boolean; cancel: boolean; refund: boolean };
};

export function useOrder(id: string) {
  return trpc.admin.orders.byId.useQuery({ id }, { select: (order) => order as OrderDetail });
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
