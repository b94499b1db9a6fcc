import type { Db } from '../db/database.js';
import { codeKey, type DiscountScope } from '../shared/discounts.js';

/** A discounts row for tests: a running sale or code unless told otherwise. */
export type TestDiscount = {
  id: string;
  kind: 'sale' | 'code';
  name: string;
  code?: string;
  value: { percent: number } | { amountMinor: number; currency: string } | 'free_shipping';
  target?: 'order' | 'items';
  scope?: DiscountScope;
  startsAt?: string;
  endsAt?: string | null;
  endedAt?: string | null;
  minOrderMinor?: number | null;
  maxUses?: number | null;
  maxUsesPerEmail?: number | null;
  uses?: number;
  createdAt?: string;
};

export async function insertDiscounts(db: Db, rows: TestDiscount[]): Promise<void> {
  for (const d of rows) {
    const created = d.createdAt ?? '2026-11-01T00:00:00.000Z';
    const v = d.value;
    await db
      .insertInto('discounts')
      .values({
        id: d.id,
        kind: d.kind,
        name: d.name,
        code: d.code ?? null,
        code_key: d.code ? codeKey(d.code) : null,
        value_type: v === 'free_shipping' ? 'free_shipping' : 'percent' in v ? 'percent' : 'fixed',
        percent: typeof v === 'object' && 'percent' in v ? v.percent : null,
        amount_minor: typeof v === 'object' && 'amountMinor' in v ? v.amountMinor : null,
        currency: typeof v === 'object' && 'currency' in v ? v.currency : null,
        target: d.target ?? (d.kind === 'sale' ? 'items' : 'order'),
        scope: JSON.stringify(d.scope ?? {}),
        starts_at: d.startsAt ?? '2026-11-01T00:00:00.000Z',
        ends_at: d.endsAt ?? null,
        ended_at: d.endedAt ?? null,
        min_order_minor: d.minOrderMinor ?? null,
        max_uses: d.maxUses ?? null,
        max_uses_per_email: d.maxUsesPerEmail ?? null,
        uses: d.uses ?? 0,
        created_at: created,
        updated_at: created,
      })
      .execute();
  }
}

/** The decision's example: "Eid 20% off women's lawn" and EID10, 10 % off orders over 100 with 50 uses. */
export const EID_SALE: TestDiscount = {
  id: 'sale_eid',
  kind: 'sale',
  name: 'Eid 20% off lawn',
  value: { percent: 20 },
  scope: { tags: ['lawn'] },
};
export const EID10: TestDiscount = {
  id: 'code_eid10',
  kind: 'code',
  name: 'Eid ten',
  code: 'EID10',
  value: { percent: 10 },
  minOrderMinor: 10_000,
  maxUses: 50,
};
