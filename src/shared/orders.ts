export const ORDER_STATUSES = ['pending', 'processing', 'paid', 'payment_failed', 'expired'] as const;
export type OrderStatusName = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABEL: Record<OrderStatusName, string> = {
  pending: 'Awaiting payment',
  processing: 'Payment processing',
  paid: 'Paid',
  payment_failed: 'Payment failed',
  expired: 'Expired',
};
