import { TRPCError } from '@trpc/server';
import type { Db } from '../../db/database.js';
import { parseJsonArray } from '../../db/json-columns.js';
import { ALL_COLOURS, colourKey, colourSlug, findColour, variantLabel } from '../../shared/colours.js';
import { enqueueEmail } from '../email/outbox.repository.js';
import { backInStockEmail } from '../email/stock-emails.js';
import { readStoreIdentity } from '../email/store-identity.js';
import { isSoldOut, sizeSoldOut } from './sold-out.js';
import { colourName } from './stock.repository.js';

/**
 * An address as the wish list keeps it: trimmed and lower-cased whole, so `BIS1@x` and `bis1@x` are one
 * shopper. Mail servers treat the local part case-insensitively in practice, whatever RFC 5321 allows.
 */
export function stockAlertAddress(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * "Email me when it is back": records the wish for a sold-out size, one per address and size. The answer is
 * the same whether the address was already waiting or not (nothing to learn about other shoppers), and a size
 * that can be bought is refused (there is nothing to wait for).
 */
export async function addStockAlert(
  db: Db,
  alert: { productId: string; colour?: string | null | undefined; size: string; email: string; now: Date },
): Promise<void> {
  const product = await db
    .selectFrom('products')
    .select(['id', 'sizes', 'colors'])
    .where('id', '=', alert.productId)
    .executeTakeFirst();
  if (!product) throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
  const size = parseJsonArray(product.sizes).find((s) => s === alert.size);
  if (!size) throw new TRPCError({ code: 'BAD_REQUEST', message: 'This product has no such size.' });
  const colours = parseJsonArray(product.colors);
  const colour = findColour(
    colours.map((name) => ({ name })),
    alert.colour,
  )?.name;
  if (colours.length > 0 && !colour)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose one of this product’s colours.' });
  if (colours.length === 0 && alert.colour)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This product has no such colour.' });
  const key = colour ? colourKey(colour) : ALL_COLOURS;
  const rows = await db
    .selectFrom('size_stock')
    .select(['colour', 'on_hand', 'reserved'])
    .where('product_id', '=', product.id)
    .where('size', '=', size)
    .where('colour', 'in', [...new Set([key, ALL_COLOURS])])
    .execute();
  const count = rows.find((r) => r.colour === key) ?? rows.find((r) => r.colour === ALL_COLOURS);
  if (!count || !isSoldOut(count))
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `${variantLabel(colour, size)} is available now: you can add it to your cart.`,
    });
  await db
    .insertInto('stock_alerts')
    .values({
      product_id: product.id,
      colour: key,
      size,
      email: stockAlertAddress(alert.email),
      created_at: alert.now.toISOString(),
      notified_at: null,
    })
    .onConflict((oc) =>
      oc.columns(['product_id', 'colour', 'size', 'email']).doUpdateSet({ notified_at: null }),
    )
    .execute();
}

/** Wishes one call of notifyBackInStock handles; the next call takes the rest. */
export const BACK_IN_STOCK_BATCH = 500;

/**
 * Emails every shopper waiting for a size that can be bought again (or is no longer tracked), once: the
 * alert is marked in the same transaction that queues its email, and only the transaction that marks it
 * queues one. Returns how many were queued.
 */
export async function notifyBackInStock(db: Db, opts: { now: Date; publicUrl: string }): Promise<number> {
  const ready = await db
    .selectFrom('stock_alerts as a')
    .innerJoin('products as p', 'p.id', 'a.product_id')
    // The colour's own count, else all colours' (decision 0036).
    .leftJoin('size_stock as s', (join) =>
      join
        .onRef('s.product_id', '=', 'a.product_id')
        .onRef('s.colour', '=', 'a.colour')
        .onRef('s.size', '=', 'a.size'),
    )
    .leftJoin('size_stock as ss', (join) =>
      join
        .onRef('ss.product_id', '=', 'a.product_id')
        .on('ss.colour', '=', ALL_COLOURS)
        .onRef('ss.size', '=', 'a.size'),
    )
    .select(['a.id', 'a.email', 'a.colour', 'a.size', 'p.id as product_id', 'p.title', 'p.colors'])
    .where('a.notified_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('s.product_id', 'is not', null), eb.not(sizeSoldOut('s'))]),
        eb.and([
          eb('s.product_id', 'is', null),
          eb.or([eb('ss.product_id', 'is', null), eb.not(sizeSoldOut('ss'))]),
        ]),
      ]),
    )
    .orderBy('a.id')
    .limit(BACK_IN_STOCK_BATCH)
    .execute();
  if (ready.length === 0) return 0;
  const store = await readStoreIdentity(db, opts.publicUrl);
  let queued = 0;
  for (const alert of ready) {
    const sent = await db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('stock_alerts')
        .set({ notified_at: opts.now.toISOString() })
        .where('id', '=', alert.id)
        .where('notified_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) return false;
      const names = parseJsonArray(alert.colors);
      // A colour the product no longer has (removed, or renamed: its key changed) has no count left, which
      // reads as "not tracked": telling the shopper it is back would be false. Its wish is closed unsent.
      if (alert.colour !== ALL_COLOURS && !names.some((n) => colourKey(n) === alert.colour)) return false;
      const colour = alert.colour === ALL_COLOURS ? null : colourName(names, alert.colour);
      const email = backInStockEmail({
        store,
        product: {
          title: alert.title,
          size: variantLabel(colour, alert.size),
          url: `${opts.publicUrl}/product/${encodeURIComponent(alert.product_id)}${
            colour ? `?colour=${encodeURIComponent(colourSlug(colour))}` : ''
          }`,
        },
      });
      await enqueueEmail(trx, { kind: 'back_in_stock', orderId: null, to: alert.email, ...email }, opts.now);
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}
