/**
 * Returns and exchanges (decision 0039): the names the server and, later, the client share. No Zod here: the
 * server's inputs are checked in modules/returns.
 */
export const RETURN_STATUSES = [
  'requested',
  'approved',
  'declined',
  'received',
  'closed',
  'cancelled',
] as const;
export type ReturnStatusName = (typeof RETURN_STATUSES)[number];
/** The contract's name for the status type. */
export type returnStatus = ReturnStatusName;

export const RETURN_STATUS_LABEL: Record<ReturnStatusName, string> = {
  requested: 'Requested',
  approved: 'Approved',
  declined: 'Declined',
  received: 'Received',
  closed: 'Closed',
  cancelled: 'Cancelled',
};

/** A return in one of these still counts against its lines' quantities and may still change. */
export const OPEN_RETURN_STATUSES = [
  'requested',
  'approved',
  'received',
] as const satisfies readonly ReturnStatusName[];

/** A declined or cancelled return gives its lines' quantities back; every other status keeps them. */
export const RETURN_STATUSES_COUNTED = [
  'requested',
  'approved',
  'received',
  'closed',
] as const satisfies readonly ReturnStatusName[];

export const RETURN_REASONS = [
  'too_small',
  'too_big',
  'not_as_pictured',
  'damaged',
  'changed_mind',
  'other',
] as const;
export type ReturnReasonName = (typeof RETURN_REASONS)[number];

export const RETURN_REASON_LABEL: Record<ReturnReasonName, string> = {
  too_small: 'Too small',
  too_big: 'Too big',
  not_as_pictured: 'Not as pictured',
  damaged: 'Damaged',
  changed_mind: 'Changed my mind',
  other: 'Other',
};

export const RETURN_RESOLUTIONS = ['exchange', 'refund'] as const;
export type ReturnResolutionName = (typeof RETURN_RESOLUTIONS)[number];

/** The steps that email the shopper; 'exchange_shipped' and 'refunded' both close a return. */
export const RETURN_STEPS = [
  'requested',
  'approved',
  'declined',
  'received',
  'exchange_shipped',
  'refunded',
  'cancelled',
  /** The shopper (or the owner, for a payment taken another way) paid an exchange's price difference. */
  'difference_paid',
] as const;
export type ReturnStep = (typeof RETURN_STEPS)[number];

/**
 * An exchange's price difference (decision 0039), fixed when the shopper asks: 'due' the shopper owes it,
 * 'paid' they paid it, 'collect_on_delivery' the courier collects it with the replacement, 'to_refund' the
 * shop owes it back, 'refunded' it went back; 'none' when the replacement costs the same.
 */
export const DIFFERENCE_STATUSES = [
  'none',
  'due',
  'paid',
  'collect_on_delivery',
  'to_refund',
  'refunded',
] as const;
export type DifferenceStatus = (typeof DIFFERENCE_STATUSES)[number];

export const DIFFERENCE_STATUS_LABEL: Record<DifferenceStatus, string> = {
  none: 'No difference',
  due: 'To pay',
  paid: 'Paid',
  collect_on_delivery: 'Collected on delivery',
  to_refund: 'To refund',
  refunded: 'Refunded',
};

export type ReturnPostagePayer = 'shopper' | 'shop';

/** The owner's return settings as stored (settings.returns) and read with defaults. */
export type ReturnSettings = {
  /** Days after delivery (or shipping, when delivery is not recorded) a return may be asked for; 0: none. */
  windowDays: number;
  /** The reasons that may end in a refund; the others offer an exchange only. */
  refundReasons: ReturnReasonName[];
  postagePaidBy: ReturnPostagePayer;
  /** Shown to the shopper: the return address, how to send the parcel. */
  instructions: string;
  /** A product with one of these tags cannot be returned online. */
  finalSaleTags: string[];
};

export const RETURN_SETTING_LIMITS = {
  maxWindowDays: 365,
  maxInstructions: 2000,
  maxFinalSaleTags: 50,
  maxTagLength: 100,
} as const;

export const DEFAULT_RETURN_SETTINGS: ReturnSettings = {
  windowDays: 14,
  refundReasons: [...RETURN_REASONS],
  postagePaidBy: 'shopper',
  instructions: '',
  finalSaleTags: [],
};

/** The most lines one return may name, and the largest quantity of one line (far above any real order). */
export const RETURN_LIMITS = {
  maxLines: 50,
  maxQuantity: 1000,
  maxReasonText: 500,
  /** Return requests one order may have in all, cancelled ones included: asking is not free for the shop. */
  maxRequestsPerOrder: 5,
} as const;

/** A replacement the shopper may choose: a size (and colour) of the same product, in stock or untracked. */
export type ReturnOption = {
  size: string;
  /** The colour's key (what requestReturn takes); null for a product without colours. */
  colour: string | null;
  colourName: string | null;
  /** Units that can still be had; null when the size is not tracked (always available). */
  available: number | null;
  /**
   * What one unit of this replacement costs more (> 0, the shopper pays it) or less (< 0, given back) than
   * the unit bought, both at their regular prices now; 0 when the same.
   */
  differenceMinor: number;
  /** True when the measurements the line was bought with chose this size (decision 0040); absent otherwise. */
  fitted?: boolean;
};

export type ReturnOptionsView = {
  eligible: boolean;
  /** Why nothing can be returned online, and what to do instead; null when eligible. */
  reasonIfNot: string | null;
  windowEndsAt: string | null;
  settings: { postagePaidBy: ReturnPostagePayer; instructions: string; refundReasons: ReturnReasonName[] };
  lines: Array<{
    lineId: number;
    title: string;
    colour: string | null;
    size: string | null;
    /** Units that may still be asked for (0 for a final-sale line). */
    returnable: number;
    finalSale: boolean;
    nextSizes: { too_small: ReturnOption | null; too_big: ReturnOption | null };
    alternatives: ReturnOption[];
  }>;
};

/** A return as the shopper's order page shows it. */
export type CustomerReturnView = {
  id: string;
  status: ReturnStatusName;
  reason: ReturnReasonName;
  resolution: ReturnResolutionName;
  createdAt: string;
  lines: Array<{
    lineId: number;
    title: string;
    quantity: number;
    exchangeSize: string | null;
    /** The replacement colour's name; null for a refund or a product without colours. */
    exchangeColour: string | null;
    /** The line's price difference (per unit × quantity), signed, fixed when the shopper asked. */
    differenceMinor: number;
  }>;
  /**
   * The exchange's price difference, signed (> 0 the shopper owes it, < 0 the shop gives it back); null when
   * there is none. canPay: it may be paid from the order page now (a card order, the return approved or
   * received, the difference due).
   */
  difference: { amountMinor: number; status: DifferenceStatus; canPay: boolean } | null;
  exchangeTracking: { carrier: string; number: string } | null;
  refundedMinor: number | null;
  declineReason: string | null;
};
