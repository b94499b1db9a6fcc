import type { Selectable } from 'kysely';
import type { DbOrTx, DiscountsTable } from '../../db/database.js';
import { codeKey, type Discount, type DiscountScope, type DiscountValue } from '../../shared/discounts.js';

type DiscountRow = Selectable<DiscountsTable>;

/** A discounts row as the pricing rules take it (src/shared/discounts.ts). */
export function toDiscount(row: DiscountRow): Discount {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    code: row.code,
    value: discountValue(row),
    target: row.target,
    scope: scopeOf(row.scope),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    endedAt: row.ended_at,
    minOrderMinor: row.min_order_minor === null ? null : Number(row.min_order_minor),
    // One currency column: a fixed amount's, else the minimum's.
    minOrderCurrency: row.min_order_minor === null ? null : row.currency,
    maxUses: row.max_uses,
    maxUsesPerEmail: row.max_uses_per_email,
    uses: Number(row.uses),
    createdAt: row.created_at,
  };
}

function discountValue(row: DiscountRow): DiscountValue {
  if (row.value_type === 'percent') return { type: 'percent', percent: row.percent ?? 0 };
  if (row.value_type === 'fixed') {
    return { type: 'fixed', amountMinor: Number(row.amount_minor ?? 0), currency: row.currency ?? '' };
  }
  return { type: 'free_shipping' };
}

/** The scope column (text on SQLite, jsonb on PostgreSQL), any hand-edited oddity left out. */
function scopeOf(raw: unknown): DiscountScope {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return {};
    }
  }
  if (!value || typeof value !== 'object') return {};
  const v = value as Record<string, unknown>;
  const texts = (x: unknown) => (Array.isArray(x) ? x.filter((t): t is string => typeof t === 'string') : []);
  const scope: DiscountScope = {};
  if (texts(v.products).length > 0) scope.products = texts(v.products);
  if (texts(v.tags).length > 0) scope.tags = texts(v.tags);
  if (texts(v.colours).length > 0) scope.colours = texts(v.colours);
  return scope;
}

/** Every sale not ended by the owner (running, scheduled or past): the rules pick what runs at a moment. */
export async function readSales(db: DbOrTx): Promise<Discount[]> {
  const rows = await db
    .selectFrom('discounts')
    .selectAll()
    .where('kind', '=', 'sale')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toDiscount);
}

/** The code a shopper typed (any case, spaces around), or null when there is none. */
export async function findCode(db: DbOrTx, typed: string): Promise<Discount | null> {
  const row = await db
    .selectFrom('discounts')
    .selectAll()
    .where('kind', '=', 'code')
    .where('code_key', '=', codeKey(typed))
    .executeTakeFirst();
  return row ? toDiscount(row) : null;
}
