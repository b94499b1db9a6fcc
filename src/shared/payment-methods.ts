import { z } from 'zod';
import {
  addressLine2,
  addressText,
  cartInput,
  countryCode,
  orderIdInput,
  shopperEmail,
} from './checkout-input.js';
import { STORE_CURRENCY } from './listing.js';
import { isKnownCurrency, parseMajorToMinor } from './money.js';
import { type FulfilmentName, type OrderStatusName, orderStageLabel } from './orders.js';

import { PAYMENT_METHODS, PAYMENT_STEPS, type PaymentMethodName, type PaymentStep } from './payment-names.js';

// The names live in a module of their own, so checkout-input.ts (which this file imports) can use them too.
export { PAYMENT_METHODS, PAYMENT_STEPS, type PaymentMethodName, type PaymentStep };
/** The methods the store collects the shopper's details for itself (no payment page to send them to). */
export const OFFLINE_METHODS = ['cash_on_delivery', 'bank_transfer'] as const;
export type OfflineMethodName = (typeof OFFLINE_METHODS)[number];

export const PAYMENT_METHOD_LABEL: Record<PaymentMethodName, string> = {
  card: 'Card',
  cash_on_delivery: 'Cash on delivery',
  bank_transfer: 'Bank transfer',
};

const countryList = z
  .array(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'Use two-letter country codes')
      .transform((c) => c.toUpperCase()),
  )
  .max(250)
  .transform((list) => [...new Set(list)].sort());

/**
 * The owner's payment method settings, as stored (minor units). A method's `countries` lists the shipping
 * countries it is offered for; an empty list offers it for every country the store ships to.
 */
export const paymentMethodSettings = z.object({
  card: z.object({ enabled: z.boolean(), countries: countryList }),
  cashOnDelivery: z.object({
    enabled: z.boolean(),
    countries: countryList,
    /** The fee and the maximum are in this currency, and only carts in it may pay cash on delivery. */
    currency: z.string().trim().toLowerCase().refine(isKnownCurrency, 'Choose a currency'),
    feeMinor: z.number().int().min(0).max(100_000_000),
    /** The largest order total (fee included) a shopper may pay at the door; null for no maximum. */
    maxOrderMinor: z.number().int().min(1).max(100_000_000_000).nullable(),
    /** Unconfirmed this long after it is placed, the order expires and its stock goes back. */
    confirmHours: z.number().int().min(1).max(168),
  }),
  bankTransfer: z.object({
    enabled: z.boolean(),
    countries: countryList,
    /** Shown to the shopper on the order page and in the email: bank, account name, IBAN, … */
    accountDetails: z.string().trim().max(2000),
    /** Not paid this many days after it is placed, the order expires and its stock goes back. */
    holdDays: z.number().int().min(1).max(30),
  }),
  /** Abuse limits for cash on delivery (decision 0038). */
  limits: z.object({
    /** Unconfirmed cash-on-delivery orders at once, per phone, per email and per address. */
    unconfirmedPerPhone: z.number().int().min(1).max(50),
    unconfirmedPerEmail: z.number().int().min(1).max(50),
    unconfirmedPerAddress: z.number().int().min(1).max(50),
    /** A phone whose last this-many cash-on-delivery orders were returned to origin is refused. */
    returnsBeforeRefusal: z.number().int().min(1).max(20),
  }),
  /** The steps after which the shopper gets an email (placing and expiry always send one). */
  emails: z.object({
    confirmed: z.boolean(),
    collected: z.boolean(),
    returned: z.boolean(),
    transferReceived: z.boolean(),
  }),
});
export type PaymentMethodSettings = z.output<typeof paymentMethodSettings>;

/** Card only, as every store was before cash on delivery and transfers. */
export const DEFAULT_PAYMENT_METHODS: PaymentMethodSettings = {
  card: { enabled: true, countries: [] },
  cashOnDelivery: {
    enabled: false,
    countries: ['PK'],
    currency: STORE_CURRENCY,
    feeMinor: 0,
    maxOrderMinor: null,
    confirmHours: 24,
  },
  bankTransfer: { enabled: false, countries: ['PK'], accountDetails: '', holdDays: 3 },
  limits: {
    unconfirmedPerPhone: 2,
    unconfirmedPerEmail: 2,
    unconfirmedPerAddress: 2,
    returnsBeforeRefusal: 2,
  },
  emails: { confirmed: true, collected: true, returned: false, transferReceived: true },
};

/** Reads the stored JSON; what is missing or unreadable takes its default, so an old store reads card only. */
export function readPaymentMethodSettings(json: string | null | undefined): PaymentMethodSettings {
  let stored: unknown = {};
  try {
    stored = JSON.parse(json ?? '{}');
  } catch {
    stored = {};
  }
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const section = <K extends keyof PaymentMethodSettings>(key: K): PaymentMethodSettings[K] => {
    const merged = { ...DEFAULT_PAYMENT_METHODS[key], ...(value[key] as object | undefined) };
    const parsed = paymentMethodSettings.shape[key].safeParse(merged);
    return (parsed.success ? parsed.data : DEFAULT_PAYMENT_METHODS[key]) as PaymentMethodSettings[K];
  };
  return {
    card: section('card'),
    cashOnDelivery: section('cashOnDelivery'),
    bankTransfer: section('bankTransfer'),
    limits: section('limits'),
    emails: section('emails'),
  };
}

const moneyText = z.string().trim().max(20);

/**
 * The admin's form: as stored, but the fee and the maximum typed as amounts ("2.00", "" for no maximum) in
 * the method's currency.
 */
export const paymentMethodSettingsInput = paymentMethodSettings
  .extend({
    cashOnDelivery: paymentMethodSettings.shape.cashOnDelivery
      .omit({ feeMinor: true, maxOrderMinor: true })
      .extend({ fee: moneyText, maxOrder: moneyText }),
  })
  .superRefine((v, ctx) => {
    const { currency, fee, maxOrder } = v.cashOnDelivery;
    if (!isKnownCurrency(currency)) return;
    if (parseMajorToMinor(fee || '0', currency) === null)
      ctx.addIssue({
        code: 'custom',
        path: ['cashOnDelivery', 'fee'],
        message: 'Enter an amount like 0 or 2.00',
      });
    if (maxOrder !== '' && !(Number(parseMajorToMinor(maxOrder, currency)) > 0))
      ctx.addIssue({
        code: 'custom',
        path: ['cashOnDelivery', 'maxOrder'],
        message: 'Enter an amount above 0, or leave it empty for no maximum',
      });
    if (v.bankTransfer.enabled && v.bankTransfer.accountDetails === '')
      ctx.addIssue({
        code: 'custom',
        path: ['bankTransfer', 'accountDetails'],
        message: 'Enter the account details shoppers transfer to',
      });
  })
  .transform(
    ({ cashOnDelivery: { fee, maxOrder, ...cod }, ...rest }): PaymentMethodSettings => ({
      ...rest,
      cashOnDelivery: {
        ...cod,
        feeMinor: parseMajorToMinor(fee || '0', cod.currency) ?? 0,
        maxOrderMinor: maxOrder === '' ? null : parseMajorToMinor(maxOrder, cod.currency),
      },
    }),
  );

export const PAYMENT_STEP_LABEL: Record<PaymentStep, string> = {
  awaiting_payment: 'Awaiting payment',
  payment_processing: 'Payment processing',
  awaiting_confirmation: 'Awaiting confirmation',
  confirmed: 'Confirmed, cash due',
  awaiting_transfer: 'Awaiting transfer',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  collected: 'Delivered, cash collected',
  returned: 'Returned to origin',
  payment_failed: 'Payment failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** The step of an order from its method, payment status and fulfilment: the one place that decides it. */
export function paymentStep(
  method: PaymentMethodName,
  status: OrderStatusName,
  fulfilment: FulfilmentName,
): PaymentStep {
  if (method === 'cash_on_delivery') {
    if (status === 'payment_failed') return 'returned';
    if (fulfilment === 'cancelled') return 'cancelled';
    if (status === 'pending') return 'awaiting_confirmation';
    if (status === 'expired') return 'expired';
    if (status === 'paid') return 'collected';
    return fulfilment === 'unfulfilled' ? 'confirmed' : fulfilment;
  }
  if (fulfilment === 'cancelled') return 'cancelled';
  if (status === 'pending') return method === 'bank_transfer' ? 'awaiting_transfer' : 'awaiting_payment';
  if (status === 'processing') return 'payment_processing';
  if (status !== 'paid') return status;
  return fulfilment === 'unfulfilled' ? 'paid' : fulfilment;
}

/** The label a list shows: the card's as before (orderStageLabel), the offline methods' by their step. */
export function paymentStepLabel(
  method: PaymentMethodName,
  status: OrderStatusName,
  fulfilment: FulfilmentName,
): string {
  if (method === 'card') return orderStageLabel(status, fulfilment);
  return PAYMENT_STEP_LABEL[paymentStep(method, status, fulfilment)];
}

/** The details the store collects itself for cash on delivery and bank transfer. */
export const offlineCustomerInput = z.object({
  email: shopperEmail,
  name: addressText('Name', 120),
  /** As typed; the server checks it is a valid number for the shipping country and keeps it in E.164. */
  phone: addressText('Phone number', 30),
  address: z.object({
    line1: addressText('Address', 200),
    line2: addressLine2,
    city: addressText('City', 100),
    postalCode: z
      .string()
      .trim()
      .max(20, 'Postal code is too long (at most 20 characters)')
      .optional()
      .transform((v) => v || null),
    country: countryCode,
  }),
});

/** checkout.paymentMethods: which methods this cart may use when shipped to `country`, and what each costs. */
export const paymentMethodsQueryInput = cartInput.extend({ country: countryCode });

/** One method as checkout offers it: refused ones say why (the shopper sees the reason). */
export type OfferedPaymentMethod = {
  id: PaymentMethodName;
  label: string;
  available: boolean;
  /** Why it is not available, in words for the shopper; null when it is. */
  reason: string | null;
  /** The method's fee (cash on delivery), 0 otherwise, in the cart's currency. */
  feeMinor: number;
  currency: string;
  /** The order's total with this method: lines less discounts, plus the fee (shipping as the method says). */
  totalMinor: number;
};

/** checkout.placeOrder: a cash-on-delivery or bank-transfer order, placed by the store without a payment page. */
export const placeOfflineOrderInput = cartInput.extend({
  method: z.enum(OFFLINE_METHODS),
  customer: offlineCustomerInput,
});

/** The answer to placing one: the shopper goes to their order page. */
export type PlacedOfflineOrder = { orderId: string; number: number; orderPath: string };

/**
 * orderPage.confirmCashOnDelivery: the shopper confirms, with the order page's token or the confirmation
 * link's token from the email.
 */
export const confirmCashOnDeliveryInput = z.object({
  id: z.string().trim().min(1).max(100),
  token: z.string().trim().min(1).max(200),
});

/** adminOrders.recordCashCollected: the amount the courier handed over, in the order's currency. */
export const recordCashCollectedInput = orderIdInput.extend({
  amount: z.string().trim().min(1, 'Enter the amount collected').max(20),
});

/** adminOrders.returnedToOrigin: a refused or undeliverable parcel came back. */
export const returnedToOriginInput = orderIdInput.extend({
  reason: z.string().trim().min(1, 'Say why it came back').max(500, 'At most 500 characters'),
  restock: z.boolean(),
});

/** adminOrders.recordTransfer: the transfer arrived. */
export const recordTransferInput = orderIdInput.extend({
  reference: z.string().trim().min(1, 'Enter the transfer reference').max(100, 'At most 100 characters'),
  receivedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date as YYYY-MM-DD'),
});

/** adminOrders.liftPhoneRefusal: the owner trusts this phone again after its returns to origin. */
export const liftPhoneRefusalInput = z.object({ phone: z.string().trim().min(4).max(20) });
