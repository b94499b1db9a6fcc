import { z } from 'zod';
import type { VitalName } from './web-vitals.js';

/**
 * The owner's overview (issue 44): what the server answers and what the admin's Overview tab draws. Money is
 * per currency, never summed across currencies; days are the shop's (settings.timeZone).
 */

export const DASHBOARD_PRESETS = ['today', '7d', '30d', 'month', 'custom'] as const;
export type DashboardPreset = (typeof DASHBOARD_PRESETS)[number];

export const DASHBOARD_PRESET_LABEL: Record<DashboardPreset, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  month: 'This month',
  custom: 'Custom',
};

/** The longest custom period, in days: a year and a leap day. */
export const MAX_PERIOD_DAYS = 366;

const localDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date such as 2026-11-29');

/** A period: a preset, or a custom range of the shop's days (both inclusive). */
export const dashboardPeriodInput = z
  .object({
    preset: z.enum(DASHBOARD_PRESETS).default('7d'),
    from: localDate.optional(),
    to: localDate.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.preset !== 'custom') return;
    if (!input.from || !input.to) {
      ctx.addIssue({ code: 'custom', message: 'Choose both the first and the last day', path: ['from'] });
      return;
    }
    if (input.from > input.to)
      ctx.addIssue({ code: 'custom', message: 'The first day must not be after the last', path: ['to'] });
  });
export type DashboardPeriodInput = z.input<typeof dashboardPeriodInput>;

/** A resolved period: the shop's days, both inclusive, and the instants they span. */
export type PeriodRange = {
  from: string;
  to: string;
  /** UTC instants: [startsAt, endsAt). */
  startsAt: string;
  endsAt: string;
  days: number;
};

/** What needs doing now: each a count, linked to the list that shows them. Staff see all of these. */
export type DashboardToday = {
  /** Cash-on-delivery orders waiting for the shopper's or the owner's confirmation. */
  ordersToConfirm: number;
  /** Paid (or confirmed cash-on-delivery) orders not yet shipped. */
  ordersToShip: number;
  /** Returns waiting for the shop: requested (to approve) and received (to close). */
  returnsWaiting: number;
  /** Emails that failed for good. */
  emailsFailed: number;
  /** Tracked sizes at or under the low-stock threshold. */
  lowStockSizes: number;
  lowStockThreshold: number;
  /** Bank transfers awaited and cash on delivery shipped but not yet collected. */
  paymentsWaiting: number;
};

/** One currency's figures for a period. */
export type CurrencyFigures = {
  currency: string;
  /** What paid orders were charged (orders CSV's order_total summed over the period's paid orders). */
  revenueMinor: number;
  orders: number;
  /** revenueMinor / orders, rounded half up to the minor unit; 0 without orders. */
  averageOrderMinor: number;
  units: number;
  /** Refunds that succeeded in the period (by their date). */
  refundedMinor: number;
  /** What sales and codes took off the period's paid orders. */
  discountsMinor: number;
  /** Revenue per shop day, every day of the period (0 where none). */
  revenueByDay: Array<{ day: string; revenueMinor: number; orders: number }>;
};

export type TopItem = {
  productId: string;
  title: string;
  /** The colour's name for colour rows; null for products. */
  colour: string | null;
  currency: string;
  revenueMinor: number;
  units: number;
};

export type DashboardPeriod = {
  range: PeriodRange;
  /** The period of the same length just before. */
  previous: PeriodRange;
  /** Per currency, largest revenue first; the previous period's figures for the same currencies. */
  current: CurrencyFigures[];
  before: CurrencyFigures[];
  /** Returns asked for in the period. */
  returns: number;
  returnsBefore: number;
  topProducts: TopItem[];
  topColours: TopItem[];
  /** Paid orders by payment method (card, cash_on_delivery, bank_transfer), with their revenue per currency. */
  paymentMix: Array<{ method: string; orders: number; currency: string; revenueMinor: number }>;
  /** Paid orders from addresses that had no earlier paid order, and from those that had. */
  customers: { newCustomers: number; returning: number };
};

/** Staff see the operational half only: no money figures (decision 0030). */
export type DashboardView =
  | { role: 'owner'; today: DashboardToday; period: DashboardPeriod }
  | { role: 'staff'; today: DashboardToday; period: null };

export const sellThroughInput = z.object({
  /** One product's sizes; omitted: the whole catalogue's, size by size. */
  productId: z.string().trim().min(1).max(100).optional(),
  preset: z.enum(DASHBOARD_PRESETS).default('30d'),
  from: localDate.optional(),
  to: localDate.optional(),
  /** The pieces of the next order from the maker, to split by size. */
  reorderPieces: z.number().int().min(1, 'At least one piece').max(100_000).default(50),
});
export type SellThroughInput = z.input<typeof sellThroughInput>;

/** One size's sell-through: sold in the period against what there was to sell (sold + on hand now). */
export type SizeSellThrough = {
  size: string;
  sold: number;
  onHand: number;
  /** sold / (sold + onHand), 0..1; null when neither, or when the size's stock is not counted (no size_stock row). */
  rate: number | null;
  /** This size's pieces of the suggested reorder. */
  reorder: number;
};

export type SellThroughView = {
  range: PeriodRange;
  productId: string | null;
  title: string | null;
  reorderPieces: number;
  sizes: SizeSellThrough[];
};

/** Storefront health from the store's own records. */
export type StorefrontHealth = {
  range: PeriodRange;
  /** Real users' Core Web Vitals, 75th percentile over the period; null without samples. */
  vitals: Array<{ metric: VitalName; p75: number | null; samples: number }>;
  /** Log entries at error level in the period (repeats counted). */
  errors: number;
};
