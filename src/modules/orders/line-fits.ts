import type { DbOrTx } from '../../db/database.js';
import { type FitCm, parseFitCm } from '../products/fit-chart.js';

/**
 * The owner's order detail: each line with the fit finder's measurements it was bought with (decision 0040),
 * in centimetres; null without, or once erased. Read apart from the order record, which the shopper's page
 * and the emails share and which has no use for them.
 */
export async function withLineFits<L extends { id: number }>(
  db: DbOrTx,
  lines: L[],
): Promise<Array<L & { fitCm: FitCm | null }>> {
  const ids = lines.map((l) => l.id);
  const rows =
    ids.length === 0
      ? []
      : await db.selectFrom('order_lines').select(['id', 'fit_cm']).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, parseFitCm(r.fit_cm)]));
  return lines.map((l) => ({ ...l, fitCm: byId.get(l.id) ?? null }));
}
