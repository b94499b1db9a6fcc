import type { z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import { parseJsonArray } from '../../db/json-columns.js';
import { type LineProblem, MAX_LINE_QUANTITY, type Quote, type QuotedLine } from '../../shared/checkout.js';
import type { cartLineInput } from '../../shared/checkout-input.js';
import { productSpelling, sizeKey } from '../../shared/sizes.js';
import { available, stockOf } from '../stock/stock.repository.js';

type CartLine = z.infer<typeof cartLineInput>;

/**
 * Prices a cart from the database, line by line, and says what is wrong with each line that cannot be
 * bought as it is. The browser's idea of a price is only compared, never used. Lines of one product and
 * size are merged, whatever the size's spelling ('m', 'M'), and carry the product's own spelling, so a
 * tampered cart cannot dodge the per-line quantity limit: the merged line is capped at the limit.
 */
export async function quoteCart(db: DbOrTx, input: CartLine[], now: Date): Promise<Quote> {
  const ids = [...new Set(input.map((l) => l.productId))];
  const rows = await db
    .selectFrom('products as p')
    .select([
      'p.id',
      'p.title',
      'p.price_minor',
      'p.currency',
      'p.sizes',
      (eb) =>
        eb
          .selectFrom('media as m')
          .select('m.url')
          .whereRef('m.product_id', '=', 'p.id')
          .where('m.media_type', '=', 'image')
          .orderBy('m.display_order')
          .orderBy('m.id')
          .limit(1)
          .as('image'),
    ])
    .where('p.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));

  const merged = new Map<string, CartLine>();
  for (const raw of input) {
    const product = byId.get(raw.productId);
    const size =
      raw.size === null ? null : productSpelling(product ? parseJsonArray(product.sizes) : [], raw.size);
    const line = { ...raw, size };
    const key = JSON.stringify([line.productId, size === null ? null : sizeKey(size)]);
    const existing = merged.get(key);
    merged.set(
      key,
      existing
        ? { ...existing, quantity: Math.min(MAX_LINE_QUANTITY, existing.quantity + line.quantity) }
        : line,
    );
  }
  const lines = [...merged.values()];

  const stock = await stockOf(db, ids, now);
  const quoted: QuotedLine[] = lines.map((line) => {
    const product = byId.get(line.productId);
    if (!product) {
      return {
        ...pick(line),
        title: null,
        image: null,
        unitPriceMinor: null,
        currency: null,
        lineTotalMinor: null,
        problem: 'removed',
        left: null,
      };
    }
    const sizes = parseJsonArray(product.sizes);
    const count = line.size === null ? undefined : stock.get(product.id)?.get(line.size);
    const left = count ? available(count) : null;
    const problem: LineProblem | null =
      sizes.length > 0 && line.size === null
        ? 'size_required'
        : line.size !== null && !sizes.some((s) => sizeKey(s) === sizeKey(line.size ?? ''))
          ? 'size_unavailable'
          : left === 0
            ? 'sold_out'
            : left !== null && line.quantity > left
              ? 'not_enough_stock'
              : line.seenUnitPriceMinor !== undefined && line.seenUnitPriceMinor !== product.price_minor
                ? 'price_changed'
                : null;
    return {
      ...pick(line),
      title: product.title,
      image: product.image ?? null,
      unitPriceMinor: product.price_minor,
      currency: product.currency,
      lineTotalMinor: product.price_minor * line.quantity,
      problem,
      left,
    };
  });

  const currencies = [...new Set(quoted.flatMap((l) => (l.currency ? [l.currency] : [])))];
  const totalMinor = quoted.reduce((sum, l) => sum + (l.lineTotalMinor ?? 0), 0);
  return {
    lines: quoted,
    currency: currencies.length === 1 ? (currencies[0] ?? null) : null,
    currencies,
    totalMinor,
    ok: currencies.length === 1 && quoted.every((l) => l.problem === null),
  };
}

function pick(line: CartLine) {
  return { productId: line.productId, size: line.size, quantity: line.quantity };
}
