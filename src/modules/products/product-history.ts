import type { DbOrTx } from '../../db/database.js';
import type { AdminProduct } from './products.repository.js';

export type HistoryChange = { field: string; from: unknown; to: unknown };

const IGNORED = new Set(['updatedAt', 'createdAt', 'priceMinor']);

/** The fields whose values differ, in a form people can read ("price: 89.00 → 95.00"). */
export function diffProducts(before: AdminProduct | null, after: AdminProduct | null): HistoryChange[] {
  if (!before || !after) return [];
  const changes: HistoryChange[] = [];
  for (const key of Object.keys(after) as Array<keyof AdminProduct>) {
    if (IGNORED.has(key)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      changes.push({ field: key, from: before[key], to: after[key] });
  }
  return changes;
}

export async function recordHistory(
  db: DbOrTx,
  entry: {
    productId: string;
    title: string;
    action: 'create' | 'update' | 'delete';
    adminEmail: string;
    snapshot: AdminProduct;
    changes: HistoryChange[];
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('product_history')
    .values({
      product_id: entry.productId,
      product_title: entry.title,
      action: entry.action,
      admin_email: entry.adminEmail,
      snapshot: JSON.stringify(entry.snapshot),
      changes: JSON.stringify(entry.changes),
      created_at: entry.now.toISOString(),
    })
    .execute();
}

export async function productHistory(db: DbOrTx, productId: string) {
  const rows = await db
    .selectFrom('product_history')
    .select([
      'id',
      'action',
      'admin_email',
      'product_id',
      'product_title',
      'snapshot',
      'changes',
      'created_at',
    ])
    .where('product_id', '=', productId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    adminEmail: r.admin_email,
    productId: r.product_id,
    productTitle: r.product_title,
    snapshot: JSON.parse(r.snapshot) as unknown,
    changes: JSON.parse(r.changes) as HistoryChange[],
    createdAt: r.created_at,
  }));
}
