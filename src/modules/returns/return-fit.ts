import type { DbOrTx } from '../../db/database.js';
import { parseJsonArray } from '../../db/json-columns.js';
import { recommendSize } from '../../shared/fit-finder.js';
import type { ReturnOption } from '../../shared/returns.js';
import { sizeKey } from '../../shared/sizes.js';
import { fitChartOf, parseFitCm } from '../products/fit-chart.js';

type Fitted = { too_small: ReturnOption | null; too_big: ReturnOption | null };
const NONE: Fitted = { too_small: null, too_big: null };

/**
 * The replacement the fit finder's measurements point to (decision 0040), for a line bought with them: the
 * size the finder recommends for them on the product's chart as it is now (the colour's own chart when it has
 * one), offered for "too small" when it is larger than the size bought and for "too big" when it is smaller,
 * and only when `offer` (the same colour's size, in stock) gives it. Anything else is left to the size-order
 * walk: no measurements, no chart, no single size recommended (between sizes, outside the chart), the
 * recommendation the size bought or the other way, or none left.
 */
export async function fittedReplacements(
  db: DbOrTx,
  line: { lineId: number; productId: string; colour: string | null; size: string | null },
  offer: (size: string) => ReturnOption | null,
): Promise<Fitted> {
  if (line.size === null) return NONE;
  const row = await db
    .selectFrom('order_lines as ol')
    .innerJoin('products as p', 'p.id', 'ol.product_id')
    .select(['ol.fit_cm', 'p.sizes', 'p.size_detail', 'p.colour_options'])
    .where('ol.id', '=', line.lineId)
    .executeTakeFirst();
  const cm = row ? parseFitCm(row.fit_cm) : null;
  if (!row || !cm) return NONE;
  const { chart, sizes } = fitChartOf({ ...row, sizes: parseJsonArray(row.sizes) }, line.colour);
  if (chart.measurements.length === 0) return NONE;
  const answer = recommendSize(chart, sizes, { unit: 'cm', values: cm });
  if (answer.kind !== 'size' && answer.kind !== 'conflict') return NONE;
  const bought = sizes.findIndex((s) => sizeKey(s) === sizeKey(line.size ?? ''));
  const recommended = sizes.indexOf(answer.size);
  if (bought < 0 || recommended < 0 || recommended === bought) return NONE;
  const found = offer(answer.size);
  if (!found) return NONE;
  const fitted: ReturnOption = { ...found, fitted: true };
  return recommended > bought ? { too_small: fitted, too_big: null } : { too_small: null, too_big: fitted };
}
