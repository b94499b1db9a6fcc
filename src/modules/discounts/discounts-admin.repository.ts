import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { isUniqueViolation } from '../../db/engine-sql.js';
import {
  codeKey,
  type Discount,
  type DiscountScope,
  type DiscountValue,
  isRunning,
} from '../../shared/discounts.js';
import { toDiscount } from './discounts.repository.js';

/**
 * The admin's side of sales and codes (decision 0037): the list with each one's status and what it
 * made, and creating, changing and ending them. Pricing reads the same rows through discounts.repository.ts.
 */

export type DiscountStatus = 'scheduled' | 'running' | 'ended' | 'used_up';

/** What a discount made, in one currency: paid orders it gave, their revenue and what it took off. */
export type DiscountStats = { currency: string; orders: number; revenueMinor: number; discountMinor: number };

export type AdminDiscount = Discount & { status: DiscountStatus; stats: DiscountStats[]; updatedAt: string };

/** A discount's fields as the admin's input gives them, with its dates as UTC instants. */
export type DiscountWrite = {
  kind: 'sale' | 'code';
  name: string;
  code: string | null;
  value: DiscountValue;
  target: 'order' | 'items';
  scope: DiscountScope;
  startsAt: string;
  endsAt: string | null;
  minOrderMinor: number | null;
  minOrderCurrency: string | null;
  maxUses: number | null;
  maxUsesPerEmail: number | null;
};

/** Why a change was refused, in words for the owner. */
export class DiscountError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'BAD_REQUEST',
    message: string,
  ) {
    super(message);
  }
}

export const CODE_EXISTS_MESSAGE = 'This code exists already';
export const CODE_IN_USE_MESSAGE = 'The code cannot change once it has been used; end it and make a new one.';
export const DISCOUNT_NOT_FOUND_MESSAGE = 'This discount does not exist (any more).';

/** Where a discount stands at `now`: ended (by the owner or its end), used up, scheduled or running. */
export function statusAt(d: Discount, now: Date): DiscountStatus {
  const t = now.getTime();
  if (d.endedAt !== null && Date.parse(d.endedAt) <= t) return 'ended';
  if (d.endsAt !== null && Date.parse(d.endsAt) <= t) return 'ended';
  if (d.kind === 'code' && d.maxUses !== null && d.uses >= d.maxUses) return 'used_up';
  if (isRunning(d, now)) return 'running';
  return 'scheduled';
}

/**
 * Paid orders per discount and currency: a code by orders.discount_id, a sale by its lines' sale_id. Revenue
 * is what the orders brought in: their totals less what was refunded of them (refunds give back each unit's
 * share of its line, refundableForUnits, already in their amounts). Succeeded refunds only, as the orders
 * CSV counts them: a pending one is not yet money back, a failed one never was.
 */
async function readStats(db: DbOrTx): Promise<Map<string, DiscountStats[]>> {
  const refunded = db
    .selectFrom('refunds')
    .select((eb) => ['order_id', eb.fn.sum<number | string>('amount_minor').as('amount')])
    .where('status', '=', 'succeeded')
    .groupBy('order_id')
    .as('r');
  const netTotal = sql<number>`o.total_minor - coalesce(r.amount, 0)`;
  const byCode = await db
    .selectFrom('orders as o')
    .leftJoin(refunded, 'r.order_id', 'o.id')
    .select((eb) => [
      'o.discount_id as id',
      'o.currency',
      eb.fn.countAll<number | string>().as('orders'),
      eb.fn.sum<number | string | null>(netTotal).as('revenue'),
      eb.fn.sum<number | string | null>('o.discount_minor').as('discount'),
    ])
    .where('o.status', '=', 'paid')
    .where('o.discount_id', 'is not', null)
    .groupBy(['o.discount_id', 'o.currency'])
    .execute();
  // One row per (sale, order): an order with two lines of one sale counts once, its total once.
  const saleOrders = db
    .selectFrom('order_lines as l')
    .innerJoin('orders as o', 'o.id', 'l.order_id')
    .leftJoin(refunded, 'r.order_id', 'o.id')
    .select((eb) => [
      'l.sale_id as id',
      'o.id as order_id',
      'o.currency',
      netTotal.as('net_total'),
      eb.fn
        .sum<number | string | null>(
          sql`(coalesce(l.regular_unit_price_minor, l.unit_price_minor) - l.unit_price_minor) * l.quantity`,
        )
        .as('taken'),
    ])
    .where('o.status', '=', 'paid')
    .where('l.sale_id', 'is not', null)
    .groupBy(['l.sale_id', 'o.id', 'o.currency', 'o.total_minor', 'r.amount'])
    .as('s');
  const bySale = await db
    .selectFrom(saleOrders)
    .select((eb) => [
      's.id',
      's.currency',
      eb.fn.countAll<number | string>().as('orders'),
      eb.fn.sum<number | string | null>('s.net_total').as('revenue'),
      eb.fn.sum<number | string | null>('s.taken').as('discount'),
    ])
    .groupBy(['s.id', 's.currency'])
    .execute();
  const stats = new Map<string, DiscountStats[]>();
  for (const row of [...byCode, ...bySale]) {
    if (row.id === null) continue;
    const list = stats.get(row.id) ?? [];
    list.push({
      currency: row.currency,
      orders: Number(row.orders),
      revenueMinor: Number(row.revenue ?? 0),
      discountMinor: Number(row.discount ?? 0),
    });
    stats.set(row.id, list);
  }
  return stats;
}

/** Every sale and code, newest first, with its status at `now`, its uses and what it made. */
export async function listDiscounts(db: DbOrTx, now: Date): Promise<AdminDiscount[]> {
  const rows = await db
    .selectFrom('discounts')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const stats = await readStats(db);
  return rows.map((row) => {
    const d = toDiscount(row);
    const own = (stats.get(d.id) ?? []).sort((a, b) => a.currency.localeCompare(b.currency));
    return { ...d, status: statusAt(d, now), stats: own, updatedAt: row.updated_at };
  });
}

export async function getDiscount(db: DbOrTx, id: string, now: Date): Promise<AdminDiscount | null> {
  const row = await db.selectFrom('discounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const d = toDiscount(row);
  const stats = (await readStats(db)).get(id) ?? [];
  return { ...d, status: statusAt(d, now), stats, updatedAt: row.updated_at };
}

function columns(w: DiscountWrite) {
  return {
    kind: w.kind,
    name: w.name,
    code: w.kind === 'code' ? w.code : null,
    code_key: w.kind === 'code' && w.code !== null ? codeKey(w.code) : null,
    value_type: w.value.type,
    percent: w.value.type === 'percent' ? w.value.percent : null,
    amount_minor: w.value.type === 'fixed' ? w.value.amountMinor : null,
    // A fixed amount's currency, else the minimum's: a code has one currency for both.
    currency: w.value.type === 'fixed' ? w.value.currency : w.minOrderCurrency,
    target: w.kind === 'code' ? w.target : ('items' as const),
    scope: JSON.stringify(w.scope),
    starts_at: w.startsAt,
    ends_at: w.endsAt,
    min_order_minor: w.minOrderMinor,
    max_uses: w.maxUses,
    max_uses_per_email: w.maxUsesPerEmail,
  };
}

const CODE_KEY_INDEX = { postgres: 'discounts_code_key_key', sqlite: /discounts\.code_key/ };

async function refusingTakenCode<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, CODE_KEY_INDEX)) throw new DiscountError('CONFLICT', CODE_EXISTS_MESSAGE);
    throw err;
  }
}

export async function createDiscount(db: DbOrTx, w: DiscountWrite, now: Date): Promise<string> {
  const id = `d_${randomUUID()}`;
  const at = now.toISOString();
  await refusingTakenCode(() =>
    db
      .insertInto('discounts')
      .values({ id, ...columns(w), created_at: at, updated_at: at })
      .execute(),
  );
  return id;
}

/**
 * Changes a sale or a code. Its kind stays; a code's text stays once it has uses (orders and redemptions
 * name it), and its total uses may not go below the uses it has. The code is checked in the update itself,
 * so a checkout taking the first use meanwhile cannot slip past.
 */
export async function updateDiscount(db: DbOrTx, id: string, w: DiscountWrite, now: Date): Promise<void> {
  const current = await db
    .selectFrom('discounts')
    .select(['kind', 'code_key', 'uses'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) throw new DiscountError('NOT_FOUND', DISCOUNT_NOT_FOUND_MESSAGE);
  if (current.kind !== w.kind) {
    throw new DiscountError('BAD_REQUEST', 'A sale cannot become a code, nor a code a sale; make a new one.');
  }
  const cols = columns(w);
  const codeChanges = cols.code_key !== current.code_key;
  if (codeChanges && Number(current.uses) > 0) throw new DiscountError('CONFLICT', CODE_IN_USE_MESSAGE);
  if (cols.max_uses !== null && cols.max_uses < Number(current.uses)) {
    throw new DiscountError(
      'BAD_REQUEST',
      `It has been used ${current.uses} times already: allow at least that many.`,
    );
  }
  const result = await refusingTakenCode(() => {
    let q = db
      .updateTable('discounts')
      .set({ ...cols, updated_at: now.toISOString() })
      .where('id', '=', id);
    if (codeChanges) q = q.where('uses', '=', 0);
    if (cols.max_uses !== null) q = q.where('uses', '<=', cols.max_uses);
    return q.executeTakeFirst();
  });
  if (Number(result.numUpdatedRows) === 0) {
    throw new DiscountError(
      'CONFLICT',
      codeChanges ? CODE_IN_USE_MESSAGE : 'It was used meanwhile; please try again.',
    );
  }
}

/** Ends a sale or a code now; false when it had been ended already (nothing changes then). */
export async function endDiscount(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .updateTable('discounts')
    .set({ ended_at: at, updated_at: at })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return true;
  const exists = await db.selectFrom('discounts').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw new DiscountError('NOT_FOUND', DISCOUNT_NOT_FOUND_MESSAGE);
  return false;
}
