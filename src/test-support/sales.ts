import type { Db } from '../db/database.js';
import type { DiscountScope } from '../shared/discounts.js';

/** A sale row as the admin would write one (decision 0037), for tests: a percentage off by default. */
export async function insertSale(
  db: Db,
  sale: {
    id: string;
    name?: string;
    percent?: number;
    amountMinor?: number;
    currency?: string;
    scope?: DiscountScope;
    startsAt: string;
    endsAt?: string | null;
    createdAt?: string;
  },
): Promise<void> {
  const fixed = sale.amountMinor !== undefined;
  await db
    .insertInto('discounts')
    .values({
      id: sale.id,
      kind: 'sale',
      name: sale.name ?? `Sale ${sale.id}`,
      code: null,
      code_key: null,
      value_type: fixed ? 'fixed' : 'percent',
      percent: fixed ? null : (sale.percent ?? 20),
      amount_minor: fixed ? (sale.amountMinor ?? null) : null,
      currency: fixed ? (sale.currency ?? 'usd') : null,
      scope: JSON.stringify(sale.scope ?? {}),
      starts_at: sale.startsAt,
      ends_at: sale.endsAt ?? null,
      ended_at: null,
      min_order_minor: null,
      max_uses: null,
      max_uses_per_email: null,
      created_at: sale.createdAt ?? '2026-11-01T00:00:00.000Z',
      updated_at: sale.createdAt ?? '2026-11-01T00:00:00.000Z',
    })
    .execute();
}
