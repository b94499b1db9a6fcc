import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';
import type { AdminRole } from '../shared/auth.js';

/** Rows as SQLite stores them: snake_case, JSON as text, booleans as 0/1, times as ISO-8601 UTC text. */
export interface ProductsTable {
  id: string;
  title: string;
  description: string;
  manufacturer: string;
  manufacturer_url: string | null;
  sku: string;
  price_minor: number;
  currency: string;
  /** JSON array of size labels. */
  sizes: string;
  /** JSON object: size -> measurement name -> value. */
  size_detail: string;
  /** JSON array of colour names: the names of colour_options, for the search and facet triggers. */
  colors: string;
  /** JSON array of ColourOption (shared/colours.ts): the colour variants (migration 0027). */
  colour_options: Generated<string>;
  /** JSON array of tags. */
  tags: string;
  image_folder: string | null;
  /** JSON array of image URLs from plain catalogue files, which have no media rows; media rows come first. */
  images: string;
  stripe_payment_link: string | null;
  product_link: string | null;
  page_order: Generated<number>;
  /** slugify(title), written by the app; /products/:slug looks products up by it. */
  slug: string;
  created_at: string;
  updated_at: string;
}

export type MediaType = 'image' | 'pdf' | 'txt' | 'video';

export interface MediaTable {
  id: string;
  product_id: string;
  url: string;
  file_name: string;
  media_type: MediaType;
  display_order: number;
  alt_text: string | null;
  created_at: string;
  updated_at: string;
  /** Key in FileStorage for uploaded files; null for media given by URL. */
  storage_key: string | null;
  content_type: string | null;
  byte_size: number | null;
  width: number | null;
  height: number | null;
  /** JSON array of {url, width, format, storageKey} web variants of an uploaded image. */
  variants: Generated<string>;
}

export interface SettingsTable {
  id: Generated<number>;
  store_name: string;
  tagline: string;
  about_text: string;
  disclaimer: string;
  /** JSON array of {role, name}. */
  credits: string;
  special_order_url: string | null;
  contact_url: string | null;
  /** Shown in the order emails and used as their Reply-To (migration 0018). */
  contact_email: string | null;
  banner_title: string | null;
  banner_description: string | null;
  banner_image_url: string | null;
  banner_active: number;
  /** JSON array of ISO country codes Stripe may ship to. */
  shipping_countries: Generated<string>;
  /** JSON array of {label, amountMinor, currency, minDays, maxDays}. */
  shipping_options: Generated<string>;
  /** Sizes with this many or fewer left are listed on the admin's dashboard. */
  low_stock_threshold: Generated<number>;
  /** IANA time zone the owner sets dates in (sales, codes, reports); 'UTC' until set. */
  time_zone: Generated<string>;
  /** 1: Stripe Dashboard promotion codes may be entered on Stripe's page (never with a store code). */
  stripe_promotion_codes: Generated<number>;
  /** JSON object: the payment method settings (shared/payment-methods.ts); '{}' until the owner sets them. */
  payment_methods: Generated<string>;
  /** JSON object: the return settings (modules/returns/return-settings.ts); '{}' until the owner sets them. */
  returns: Generated<string>;
  updated_at: string;
}

export interface FunnyQuotesTable {
  id: Generated<number>;
  quote: string;
  author: string;
  created_at: string;
}

export interface VersionInfoTable {
  id: Generated<number>;
  version: string;
  environment: string;
  notes: string | null;
  updated_at: string;
}

export interface AppMetaTable {
  key: string;
  value: string;
}

/** Which products changed, in order (written by triggers; the last 10,000 are kept). */
export interface CatalogueChangesTable {
  seq: Generated<number>;
  product_id: string;
}

export interface AdminsTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  session_epoch: Generated<number>;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  /** 'owner' or 'staff' (AdminRole); every account before roles existed is an owner. */
  role: ColumnType<AdminRole, AdminRole | undefined, AdminRole>;
  /** The TOTP secret, sealed (modules/auth/secret-box.ts); null without two-factor sign-in. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** A secret shown for enrolment and not yet confirmed with a code. */
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The time step of the last code accepted: a code is good once (RFC 6238, 5.2). */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AdminRecoveryCodesTable {
  admin_id: number;
  /** SHA-256 of the normalised code (50 random bits each). */
  code_hash: string;
  used_at: string | null;
}

export interface AdminInvitesTable {
  id: Generated<number>;
  /** SHA-256 of the link's token; the token itself is only ever in the link. */
  token_hash: string;
  email: string;
  role: AdminRole;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

export type { AdminRole } from '../shared/auth.js';

export type FacetKind = 'manufacturer' | 'size' | 'color' | 'tag';

export interface ProductFacetsTable {
  kind: FacetKind;
  value_key: string;
  product_id: string;
  value: string;
}

export interface ProductSearchIdsTable {
  rowid: Generated<number>;
  product_id: string;
}

export interface ProductsFtsTable {
  rowid: number;
  title: string;
  description: string;
  manufacturer: string;
  tags: string;
}

export type OrderStatus = 'pending' | 'processing' | 'paid' | 'payment_failed' | 'expired';

export interface OrdersTable {
  id: string;
  number: number;
  status: OrderStatus;
  payment_mode: 'stripe' | 'demo';
  currency: string;
  subtotal_minor: number;
  total_minor: number | null;
  customer_email: string | null;
  customer_name: string | null;
  shipping_address: string | null;
  billing_address: string | null;
  stripe_session_id: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  fulfilment: Generated<Fulfilment>;
  carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  cancelled_at: string | null;
  /** Pending and succeeded refunds together, never above what was paid (a CHECK). */
  refunded_minor: Generated<number>;
  payment_intent_id: string | null;
  /** The key of the shopper's order page link. */
  access_token: string | null;
  /** Set when a payment took more of a size than was left: the admin refunds or restocks. */
  stock_problem: string | null;
  /** What the order's code took off (the sum of its lines' shares; decision 0037). */
  discount_minor: Generated<number>;
  /** What sales took off its lines, for the reports. */
  sales_minor: Generated<number>;
  /** The code as the shopper entered it (the owner's spelling), or what Stripe applied; null for none. */
  discount_code: string | null;
  discount_id: string | null;
  /** How the shopper pays (decision 0038); 'card' for every order before cash on delivery and transfers. */
  payment_method: Generated<PaymentMethodId>;
  /** The cash-on-delivery fee, part of total_minor; 0 for other methods. */
  method_fee_minor: Generated<number>;
  /** The shopper's phone in E.164, for cash on delivery and transfers (the courier calls it). */
  phone: string | null;
  /** SHA-256 of the cash-on-delivery confirmation link's token; the token itself is never kept. */
  confirm_token_hash: string | null;
  /**
   * The pending step's deadline, set at placing with the stock's hold: unconfirmed (cash on delivery) or
   * unpaid (bank transfer) by then, the order expires and its stock goes back.
   */
  confirm_by: string | null;
  confirmed_at: string | null;
  /** "shopper" for the email link, or the admin's email who confirmed after a call. */
  confirmed_by: string | null;
  /** The cash the owner recorded as collected at the door. */
  collected_minor: number | null;
  collected_at: string | null;
  /** The bank transfer's reference and the day it arrived (YYYY-MM-DD), as the owner recorded them. */
  transfer_reference: string | null;
  transfer_received_on: string | null;
  /** A cash-on-delivery parcel sent back: why, whether its stock was put back (0/1), and when. */
  returned_reason: string | null;
  returned_restocked: number | null;
  returned_at: string | null;
}

/** The payment methods an order can have (decision 0038). */
export type PaymentMethodId = 'card' | 'cash_on_delivery' | 'bank_transfer';

/** A phone the owner trusts again after its cash-on-delivery parcels were returned to origin. */
export interface CodPhoneTrustTable {
  phone: string;
  lifted_at: string;
  lifted_by: string;
}

/** Stock of one size; a size without a row is not tracked (always available). */
export interface SizeStockTable {
  product_id: string;
  /** colourKey of the colour this count is of; '' (ALL_COLOURS): every colour without a count of its own. */
  colour: Generated<string>;
  size: string;
  on_hand: number;
  /** Units held by open checkouts: on_hand - reserved can be bought. */
  reserved: Generated<number>;
}

export interface StockAlertsTable {
  id: Generated<number>;
  product_id: string;
  /** colourKey of the colour wished for; '' for a product without colours. */
  colour: Generated<string>;
  size: string;
  email: string;
  created_at: string;
  notified_at: string | null;
}

export interface StockReservationsTable {
  id: Generated<number>;
  order_id: string;
  product_id: string;
  /** The stock pool the units were taken from (size_stock.colour): '' for all colours. */
  colour: Generated<string>;
  size: string;
  quantity: number;
  state: 'held' | 'sold' | 'released';
  expires_at: string;
  created_at: string;
}

/** Where the goods are, beside where the money is (status): as Stripe and Shopify keep the two apart. */
export type Fulfilment = 'unfulfilled' | 'shipped' | 'delivered' | 'cancelled';

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

export interface RefundsTable {
  id: string;
  order_id: string;
  amount_minor: number;
  currency: string;
  reason: string | null;
  /** JSON array of { lineId, quantity }: the lines this refund gives back, empty for an amount. */
  lines: Generated<string>;
  status: RefundStatus;
  provider: 'stripe' | 'demo';
  provider_refund_id: string | null;
  failure: string | null;
  admin_email: string;
  created_at: string;
  updated_at: string;
  /** 'provider': sent to Stripe (or the demo); 'manual': paid back by hand, recorded as done (decision 0038). */
  method: Generated<'provider' | 'manual'>;
  /** For a manual refund: how the money went back (cash, bank transfer, …). */
  paid_via: string | null;
  note: string | null;
  /** The return whose email tells the shopper of this refund (a return's refund, an exchange's difference). */
  return_id: Generated<string | null>;
}

export interface OrderEventsTable {
  id: Generated<number>;
  order_id: string;
  kind: string;
  /** Who acted: an admin's email, "Stripe", "shopper" or "store". */
  actor: string;
  /** JSON object with what the event needs to be told (carrier, amount...). */
  detail: Generated<string>;
  at: string;
}

export interface OrderLinesTable {
  id: Generated<number>;
  order_id: string;
  product_id: string;
  title: string;
  /** The colour's name as it was when bought; null for a product without colours. */
  colour: ColumnType<string | null, string | null | undefined, string | null>;
  size: string | null;
  quantity: number;
  unit_price_minor: number;
  line_total_minor: number;
  image_url: string | null;
  refunded_quantity: Generated<number>;
  /** The unit price before any sale; null on lines from before sales (then unit_price_minor). */
  regular_unit_price_minor: number | null;
  /** The line's share of the order's code (decision 0037); line_total_minor is after it. */
  discount_minor: Generated<number>;
  sale_id: string | null;
  sale_name: string | null;
  /** The fit finder's measurements, JSON `{ chest: 96.5, … }` in cm (decision 0040); null without, or once erased. */
  fit_cm: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A sale or a discount code (decision 0037). */
export interface DiscountsTable {
  id: string;
  kind: 'sale' | 'code';
  name: string;
  code: string | null;
  /** codeKey(code): unique among codes. */
  code_key: string | null;
  value_type: 'percent' | 'fixed' | 'free_shipping';
  percent: number | null;
  amount_minor: number | null;
  currency: string | null;
  target: Generated<'order' | 'items'>;
  /** JSON of a DiscountScope (jsonb on PostgreSQL). */
  scope: Generated<string>;
  starts_at: string;
  ends_at: string | null;
  ended_at: string | null;
  min_order_minor: number | null;
  max_uses: number | null;
  max_uses_per_email: number | null;
  /** Held and redeemed uses. */
  uses: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A code's use by one checkout: held while it can be paid, then redeemed or released. */
export interface DiscountRedemptionsTable {
  id: Generated<number>;
  discount_id: string;
  order_id: string;
  email: string | null;
  status: 'held' | 'redeemed' | 'released';
  amount_minor: number;
  created_at: string;
  updated_at: string;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  order_id: string | null;
  outcome: string;
  received_at: string;
}

export interface ProductHistoryTable {
  id: Generated<number>;
  product_id: string;
  product_title: string;
  action: 'create' | 'update' | 'delete';
  admin_email: string;
  snapshot: string;
  changes: Generated<string>;
  created_at: string;
}

export type LogLevel = 'info' | 'warning' | 'error';

/** One change an admin made (decision 0031). */
export interface AdminAuditTable {
  id: Generated<number>;
  at: string;
  /** Null never, in practice; no foreign key, so the row outlives a removed account. */
  admin_id: number | null;
  admin_email: string;
  ip: string | null;
  /** The procedure ('admin.products.update') or route ('POST /api/admin/catalog/import'). */
  action: string;
  /** What it was done to, when the input names it (a product, an order, a version). */
  target: string | null;
  /** JSON object: the input with secrets left out, and before/after for edits. */
  details: Generated<string>;
}

export interface LogsTable {
  id: Generated<number>;
  time: string;
  level: LogLevel;
  /** The event's first segment ('admin', 'product', 'checkout', 'stripe', 'client', 'server', ...). */
  source: string;
  message: string;
  /** JSON object, redacted and size-limited. */
  details: Generated<string>;
  request_id: string | null;
  /** Identical entries (level, source, message) within 2 s are folded into one. */
  repeat_count: Generated<number>;
  last_time: string;
}

export type VitalName = 'LCP' | 'CLS' | 'INP' | 'FCP' | 'TTFB';

export interface WebVitalsTable {
  id: Generated<number>;
  time: string;
  metric: VitalName;
  value: number;
  /** The client route pattern ('/product/:id'), never a full URL. */
  route: string;
  navigation_type: string | null;
}

export interface CatalogVersionsTable {
  id: string;
  label: string;
  file_name: string;
  /** Key in FileStorage, always under catalogs/. */
  storage_key: string;
  /** JSON array of tags. */
  tags: string;
  is_active: number;
  /** 'backup' for the automatic copies made before Set Active and overwrite imports. */
  kind: 'export' | 'backup';
  product_count: number;
  byte_size: number;
  checksum: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One row per admin sign-in (migration 0013, decision 0003); revoked rows are kept until pruned. */
export interface AdminSessionsTable {
  id: string;
  admin_id: number;
  epoch: number;
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  user_agent: string | null;
  created_ip: string | null;
  last_seen_ip: string | null;
  /** When this session last gave a two-factor code; null while it still owes one (or never needed one). */
  two_factor_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When this session last proved who is behind it: a code, or the password without two-factor. */
  confirmed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface JobLeasesTable {
  name: string;
  /** The process holding it (host, pid and a random part). */
  holder: string;
  /** ISO-8601; after it, any process may take the lease. */
  expires_at: string;
}

/** Fixed-window counters of the limits (migration 0017, decision 0017); times in ms since the epoch. */
export interface RateCountersTable {
  /** The limit's name and what it counts ("login:ip:203.0.113.7"). */
  key: string;
  count: number;
  /** When the window ends. */
  reset_at: number;
  /** When the count last went up. */
  last_at: number;
  /** The reset_at of the window whose going over the limit was logged (0: none). */
  announced_window: Generated<number>;
}

export type ReturnStatus = 'requested' | 'approved' | 'declined' | 'received' | 'closed' | 'cancelled';
export type ReturnDifferenceStatus =
  | 'none'
  | 'due'
  | 'paid'
  | 'collect_on_delivery'
  | 'to_refund'
  | 'refunded';
export type ReturnReason = 'too_small' | 'too_big' | 'not_as_pictured' | 'damaged' | 'changed_mind' | 'other';

/** A shopper's return or exchange of some of an order's lines (decision 0039). */
export interface ReturnsTable {
  id: string;
  order_id: string;
  status: ReturnStatus;
  reason: ReturnReason;
  /** The shopper's words; required for 'other'. */
  reason_text: string | null;
  resolution: 'exchange' | 'refund';
  decline_reason: string | null;
  /** What the owner noted of the parcel's condition when it came back. */
  condition_note: string | null;
  exchange_carrier: string | null;
  exchange_tracking: string | null;
  /** What the return's refund paid back, once closed with one. */
  refunded_minor: number | null;
  currency: string;
  created_at: string;
  updated_at: string;
  approved_at: string | null;
  received_at: string | null;
  closed_at: string | null;
  /** The exchange's price difference fixed at the request, signed: > 0 the shopper owes it, < 0 the shop gives it back. */
  difference_minor: Generated<number>;
  difference_status: Generated<ReturnDifferenceStatus>;
  /** The Checkout session (Stripe or demo) last opened to pay the difference. */
  difference_session_id: string | null;
  difference_payment_intent_id: string | null;
  /** 'card', or what the owner wrote when recording it paid another way. */
  difference_paid_via: string | null;
  difference_paid_at: string | null;
  /** The refunds row that gave a negative difference back. */
  difference_refund_id: string | null;
}

export interface ReturnLinesTable {
  return_id: string;
  order_line_id: number;
  quantity: number;
  /** colourKey of the replacement ('' for a product without colours); null for a refund. */
  exchange_colour: string | null;
  /** The replacement's size; null for a refund. */
  exchange_size: string | null;
  /** Replacement units currently held on size_stock.reserved (0 for an untracked size). */
  held: Generated<number>;
  /** Units put back on the shelf when the parcel was received. */
  restocked: Generated<number>;
  /** This line's price difference (per unit × quantity), signed, fixed at the request. */
  difference_minor: Generated<number>;
}

export type EmailKind =
  | 'order_confirmation'
  | 'order_shipped'
  | 'order_refund'
  | 'back_in_stock'
  | 'admin_invite'
  /** The owner's steps on cash-on-delivery and transfer orders (decision 0038). */
  | 'order_payment_step'
  /** Each step of a return or exchange (decision 0039). */
  | 'return_step';
export type EmailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** Emails waiting to go out, and the record of those sent or given up (migration 0018, modules/email). */
export interface EmailOutboxTable {
  id: string;
  kind: EmailKind;
  order_id: string | null;
  to_address: string;
  subject: string;
  html: string;
  text_body: string;
  status: EmailStatus;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: string;
  /** When a queued email is due; null once sent or failed. */
  next_attempt_at: string | null;
  /** The process sending it and until when (status 'sending' only). */
  claimed_by: string | null;
  claim_expires_at: string | null;
  sent_at: string | null;
  /** The Message-ID the email went out with. */
  message_id: string | null;
}

/** A paid_at instant whose shop day (and month) the dashboard's summaries must sum again (decision 0041). */
export interface DashboardDirtyTable {
  id: Generated<number>;
  paid_at: string;
}

/** The one row saying in which zone's days the summaries are; zone null until first summed. */
export interface DashboardStateTable {
  id: number;
  zone: string | null;
}

/** Paid orders per shop day ('YYYY-MM-DD'), currency and payment method. */
export interface DashboardDaysTable {
  day: string;
  currency: string;
  payment_method: string;
  revenue_minor: number;
  orders: number;
  discounts_minor: number;
  units: number;
  /** Orders whose address had a paid order before them (the rest are new). */
  returning_orders: number;
}

/** Paid lines per shop month ('YYYY-MM'), currency, product and colour ('' = bought without one). */
export interface DashboardMonthsTable {
  month: string;
  currency: string;
  product_id: string;
  colour: string;
  title: string;
  revenue_minor: number;
  units: number;
}
/** A shop day's paid lines per currency, product and colour; dashboard_months is summed from these. */
export interface DashboardDayItemsTable {
  day: string;
  currency: string;
  product_id: string;
  colour: string;
  title: string;
  revenue_minor: number;
  units: number;
}
/** A shop day's units kept (quantity − refunded_quantity) per product and size as the lines wrote it. */
export interface DashboardDaySizesTable {
  day: string;
  product_id: string;
  size: string;
  sold: number;
}
export interface DashboardMonthSizesTable {
  month: string;
  product_id: string;
  size: string;
  sold: number;
}

export interface Database {
  products: ProductsTable;
  media: MediaTable;
  settings: SettingsTable;
  discounts: DiscountsTable;
  discount_redemptions: DiscountRedemptionsTable;
  funny_quotes: FunnyQuotesTable;
  version_info: VersionInfoTable;
  app_meta: AppMetaTable;
  catalogue_changes: CatalogueChangesTable;
  admins: AdminsTable;
  admin_sessions: AdminSessionsTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  admin_invites: AdminInvitesTable;
  admin_audit: AdminAuditTable;
  product_facets: ProductFacetsTable;
  product_search_ids: ProductSearchIdsTable;
  products_fts: ProductsFtsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  stripe_events: StripeEventsTable;
  refunds: RefundsTable;
  size_stock: SizeStockTable;
  stock_reservations: StockReservationsTable;
  stock_alerts: StockAlertsTable;
  order_events: OrderEventsTable;
  product_history: ProductHistoryTable;
  logs: LogsTable;
  web_vitals: WebVitalsTable;
  catalog_versions: CatalogVersionsTable;
  job_leases: JobLeasesTable;
  rate_counters: RateCountersTable;
  email_outbox: EmailOutboxTable;
  cod_phone_trust: CodPhoneTrustTable;
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
  dashboard_dirty: DashboardDirtyTable;
  dashboard_state: DashboardStateTable;
  dashboard_days: DashboardDaysTable;
  dashboard_months: DashboardMonthsTable;
  dashboard_day_items: DashboardDayItemsTable;
  dashboard_day_sizes: DashboardDaySizesTable;
  dashboard_month_sizes: DashboardMonthSizesTable;
}

export type Db = Kysely<Database>;
/** A Kysely instance or an open transaction: repository functions take either. */
export type DbOrTx = Kysely<Database> | Transaction<Database>;
