import type { PaymentMethodName, PaymentStep } from './payment-methods.js';
import type { CustomerReturnView } from './returns.js';

export const ORDER_STATUSES = ['pending', 'processing', 'paid', 'payment_failed', 'expired'] as const;
export type OrderStatusName = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABEL: Record<OrderStatusName, string> = {
  pending: 'Awaiting payment',
  processing: 'Payment processing',
  paid: 'Paid',
  payment_failed: 'Payment failed',
  expired: 'Expired',
};

/** Where the goods are: beside the payment status, as Stripe and Shopify keep the two. */
export const FULFILMENTS = ['unfulfilled', 'shipped', 'delivered', 'cancelled'] as const;
export type FulfilmentName = (typeof FULFILMENTS)[number];

export const FULFILMENT_LABEL: Record<FulfilmentName, string> = {
  unfulfilled: 'Not shipped yet',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** The one word a list shows for an order: where the goods are once it is paid, its payment before. */
export function orderStageLabel(status: OrderStatusName, fulfilment: FulfilmentName): string {
  if (fulfilment === 'cancelled') return 'Cancelled';
  if (status !== 'paid') return ORDER_STATUS_LABEL[status];
  return fulfilment === 'unfulfilled' ? 'Paid' : FULFILMENT_LABEL[fulfilment];
}

export type RefundStatusName = 'pending' | 'succeeded' | 'failed';

export const REFUND_STATUS_LABEL: Record<RefundStatusName, string> = {
  pending: 'Pending',
  succeeded: 'Refunded',
  failed: 'Failed',
};

/** An address as the store shows it, whichever way it arrived (Stripe's session, the demo form). */
export type PostalAddress = {
  name: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postalCode: string;
  country: string;
};

export type Shipment = {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
  shippedAt: string;
};

/** What the shopper's order page shows (GET /order/{id}?token=...). */
export type CustomerOrderView = {
  number: number;
  status: OrderStatusName;
  fulfilment: FulfilmentName;
  stage: string;
  currency: string;
  createdAt: string;
  paidAt: string | null;
  /** The lines at their (sale) prices, before the code (order-charges.ts). */
  subtotalMinor: number;
  /** What the order's code took off; 0 when none. */
  discountMinor: number;
  /** "Discount (EID10)". */
  discountLabel: string;
  /** Shipping and adjustments: total − (subtotal − discount). */
  adjustmentsMinor: number;
  totalMinor: number;
  refundedMinor: number;
  lines: Array<{
    title: string;
    /** The colour's name as bought; null for a product without colours. */
    colour: string | null;
    size: string | null;
    quantity: number;
    refundedQuantity: number;
    unitPriceMinor: number;
    /** What the line was charged, after its share of the code. */
    lineTotalMinor: number;
    image: string | null;
    /** The price before the sale; null on lines from before sales. */
    regularUnitPriceMinor: number | null;
    /** The line's share of the code. */
    discountMinor: number;
    saleName: string | null;
  }>;
  shippingAddress: PostalAddress | null;
  shipment: Shipment | null;
  deliveredAt: string | null;
  cancelledAt: string | null;
  store: { name: string; contactEmail: string | null; contactUrl: string | null };
  /** How the shopper pays, and where the order is for that method (decision 0038). */
  paymentMethod: PaymentMethodName;
  step: PaymentStep;
  stepLabel: string;
  /** The cash-on-delivery fee, part of totalMinor; 0 otherwise. */
  methodFeeMinor: number;
  /** While pending: confirm (cash on delivery) or transfer (bank transfer) before this (ISO); null after. */
  confirmBy: string | null;
  /** Bank transfer only: the owner's account details and the reference to quote ("Order 1042"). */
  bankDetails: string | null;
  paymentReference: string | null;
  /** The order's returns and exchanges, oldest first (decision 0039). */
  returns: CustomerReturnView[];
};
