import type { CodeRefusal } from './discounts.js';
import type { OrderStatusName } from './orders.js';

export const MAX_CART_LINES = 50;
export const MAX_LINE_QUANTITY = 10;

export type LineProblem =
  | 'removed'
  | 'size_unavailable'
  | 'price_changed'
  | 'size_required'
  | 'colour_required'
  | 'colour_unavailable'
  | 'sold_out'
  | 'not_enough_stock';

export type QuotedLine = {
  productId: string;
  /** The colour's name (the product's own spelling when it has the colour); null for a product without. */
  colour: string | null;
  size: string | null;
  quantity: number;
  title: string | null;
  image: string | null;
  /** The price charged per unit: the sale price when a sale covers the line (decision 0037). */
  unitPriceMinor: number | null;
  /** The price before any sale (struck through beside the sale price). */
  regularUnitPriceMinor: number | null;
  /** The sale the line sells at, for its badge ("−20%"); null when none covers it. */
  sale: { name: string; percentOff: number } | null;
  /** The line's share of the code's discount. */
  codeDiscountMinor: number;
  currency: string | null;
  /** What the line is charged: units at the sale price, less its share of the code. */
  lineTotalMinor: number | null;
  problem: LineProblem | null;
  /** How many of this size can still be bought; null when the size is not tracked (always available). */
  left: number | null;
};

export type Quote = {
  lines: QuotedLine[];
  /** Set when every priced line shares one currency. */
  currency: string | null;
  /** The lines at their sale prices, before the code. */
  subtotalMinor: number;
  /** What sales took off, over all lines. */
  salesMinor: number;
  /** What the code took off. */
  discountMinor: number;
  /** What is charged without shipping: subtotal less the code's discount. */
  totalMinor: number;
  /**
   * The code that applies; null when none was given or it was refused. `needsEmail`: the code counts uses
   * per address, so checkout asks for the shopper's email address with it.
   */
  code: { code: string; name: string; freeShipping: boolean; needsEmail: boolean } | null;
  /** Why the code given does not apply (the message is the shopper's). */
  codeRefusal: { reason: CodeRefusal; message: string } | null;
  currencies: string[];
  ok: boolean;
};

export type OrderSummary = {
  number: number;
  status: OrderStatusName;
  currency: string;
  subtotalMinor: number;
  totalMinor: number | null;
  paymentMode: 'stripe' | 'demo';
  lines: Array<{
    productId: string;
    title: string;
    /** The colour's name as bought; null for a product without colours. */
    colour: string | null;
    size: string | null;
    quantity: number;
    unitPriceMinor: number;
    lineTotalMinor: number;
    image: string | null;
  }>;
  /** Where the shopper can follow the order once it is paid (/order/{id}?token=...). */
  orderPagePath: string | null;
};

export const PROBLEM_TEXT: Record<LineProblem, string> = {
  removed: 'This product is no longer available. Please remove it.',
  size_unavailable: 'This size is no longer offered. Please pick another size or remove it.',
  price_changed: 'The price changed since you added it.',
  size_required: 'Please choose a size for this product.',
  colour_required: 'Please choose a colour for this product.',
  colour_unavailable: 'This colour is no longer offered. Please pick another colour or remove it.',
  sold_out: 'This size is sold out. Please pick another size or remove it.',
  not_enough_stock: 'Fewer are left in this size than you asked for. Please lower the quantity.',
};

/**
 * What the demo payment page shows before the shopper pays: the pending order's snapshot as it was made
 * (lines at the prices charged, the code's discount), and what completing it charges. All from the server.
 */
export type DemoPaymentSummary = {
  number: number;
  currency: string;
  lines: Array<{
    title: string;
    /** The colour's name as bought; null for a product without colours. */
    colour: string | null;
    size: string | null;
    quantity: number;
    /** The unit price charged (the sale price when a sale applied). */
    unitPriceMinor: number;
    /** The price before the sale; null when none applied. */
    regularUnitPriceMinor: number | null;
    saleName: string | null;
    /** The line's share of the code. */
    discountMinor: number;
    /** What the line is charged, after its share of the code. */
    lineTotalMinor: number;
  }>;
  /** The lines at their (sale) prices, before the code. */
  subtotalMinor: number;
  /** What sales took off the lines' regular prices; 0 when none. */
  salesMinor: number;
  /** What the code takes off; 0 without one. */
  discountMinor: number;
  /** "Discount (EID10)". */
  discountLabel: string;
  /** Demo mode charges no shipping: 0, said rather than left out. */
  shippingMinor: number;
  /** What completing the demo payment records as paid. */
  totalMinor: number;
};
