import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.js';
import { ALL_COLOURS, colourKey, variantLabel } from '../../shared/colours.js';

export type ReservedLine = {
  productId: string;
  title: string;
  /** The colour bought: its key (stock rows' colour) and name; null for a product without colours. */
  colour: { key: string; name: string } | null;
  size: string | null;
  quantity: number;
};

/** A line that asked for more of a size than is left; `left` is what could still be bought. */
export class StockShortage extends Error {
  override name = 'StockShortage';
  constructor(
    readonly line: ReservedLine,
    readonly left: number,
  ) {
    const variant = variantLabel(line.colour?.name, line.size);
    super(
      left === 0
        ? `${line.title} (${variant}): this size is sold out.`
        : `${line.title} (${variant}): only ${left} left in this size.`,
    );
  }
}

/**
 * Holds the units of a new order's tracked sizes, in the transaction that creates the order. Each hold is
 * one conditional UPDATE that only succeeds while enough is left, so 100 checkouts racing for the last 3
 * give exactly 3 holds, on SQLite and PostgreSQL alike. Throws StockShortage (the caller's transaction is
 * then rolled back whole).
 */
export async function reserveLines(
  trx: DbOrTx,
  order: { id: string; lines: ReservedLine[]; expiresAt: Date; now: Date },
): Promise<void> {
  for (const line of order.lines) {
    const { size } = line;
    if (size === null) continue;
    const pool = await poolFor(trx, line.productId, line.colour?.key ?? ALL_COLOURS, size);
    // No row: the size is not tracked, always available.
    if (pool === null) continue;
    const hold = () =>
      trx
        .updateTable('size_stock')
        .set((eb) => ({ reserved: eb('reserved', '+', line.quantity) }))
        .where('product_id', '=', line.productId)
        .where('colour', '=', pool)
        .where('size', '=', size)
        .where((eb) => eb(eb('on_hand', '-', eb.ref('reserved')), '>=', line.quantity))
        .executeTakeFirst();
    let held = await hold();
    // Holds whose time ran out give their units back first (the background does it too, but later).
    if (
      Number(held.numUpdatedRows) === 0 &&
      (await releaseExpiredOf(trx, line.productId, pool, size, order.now)) > 0
    )
      held = await hold();
    if (Number(held.numUpdatedRows) === 0) {
      const count = await trx
        .selectFrom('size_stock')
        .select(['on_hand', 'reserved'])
        .where('product_id', '=', line.productId)
        .where('colour', '=', pool)
        .where('size', '=', size)
        .executeTakeFirst();
      if (!count) continue;
      throw new StockShortage(line, Math.max(0, count.on_hand - count.reserved));
    }
    await trx
      .insertInto('stock_reservations')
      .values({
        order_id: order.id,
        product_id: line.productId,
        colour: pool,
        size,
        quantity: line.quantity,
        state: 'held',
        expires_at: order.expiresAt.toISOString(),
        created_at: order.now.toISOString(),
      })
      .execute();
  }
}

/**
 * The stock row a colour and size is sold from (decision 0036): the colour's own, else all colours', else
 * null (not tracked).
 */
async function poolFor(trx: DbOrTx, productId: string, colour: string, size: string): Promise<string | null> {
  const rows = await trx
    .selectFrom('size_stock')
    .select('colour')
    .where('product_id', '=', productId)
    .where('size', '=', size)
    .where('colour', 'in', [...new Set([colour, ALL_COLOURS])])
    .execute();
  if (rows.some((r) => r.colour === colour)) return colour;
  return rows.length > 0 ? ALL_COLOURS : null;
}

/** Moves a reservation out of `from` once: true for the one caller that moved it. */
async function claim(trx: DbOrTx, id: number, from: 'held' | 'released', to: 'sold' | 'released') {
  const moved = await trx
    .updateTable('stock_reservations')
    .set({ state: to })
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

async function giveBack(
  trx: DbOrTx,
  r: { product_id: string; colour: string; size: string; quantity: number },
) {
  await trx
    .updateTable('size_stock')
    // Never below zero, even if the admin's count and the holds went out of step.
    .set({
      reserved: sql<number>`CASE WHEN reserved >= ${r.quantity} THEN reserved - ${r.quantity} ELSE 0 END`,
    })
    .where('product_id', '=', r.product_id)
    .where('colour', '=', r.colour)
    .where('size', '=', r.size)
    .execute();
}

/** Ends an order's holds (its checkout expired, failed or was abandoned): the units can be bought again. */
export async function releaseReservations(trx: DbOrTx, orderId: string): Promise<number> {
  const held = await trx
    .selectFrom('stock_reservations')
    .select(['id', 'product_id', 'colour', 'size', 'quantity'])
    .where('order_id', '=', orderId)
    .where('state', '=', 'held')
    .execute();
  let released = 0;
  for (const r of held) {
    if (!(await claim(trx, r.id, 'held', 'released'))) continue;
    await giveBack(trx, r);
    released += 1;
  }
  return released;
}

/**
 * Turns an order's holds into sales when it is paid: the units leave the shop. A hold that ended before the
 * payment came (a late payment) takes what is left instead. What cannot be covered is returned as text,
 * for the order's flag: the store never sells what it does not have without saying so.
 */
export async function sellReservations(trx: DbOrTx, orderId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('stock_reservations as r')
    .leftJoin('products as p', 'p.id', 'r.product_id')
    .select(['r.id', 'r.product_id', 'r.colour', 'r.size', 'r.quantity', 'r.state', 'p.title'])
    .where('r.order_id', '=', orderId)
    .where('r.state', 'in', ['held', 'released'])
    .execute();
  const short: string[] = [];
  // Read only when something is short: most payments never need it.
  let colourOf: Map<number, string | null> | null = null;
  for (const r of rows) {
    const from = r.state === 'held' ? 'held' : 'released';
    if (!(await claim(trx, r.id, from, 'sold'))) continue;
    const sold = await trx
      .updateTable('size_stock')
      .set((eb) =>
        from === 'held'
          ? { on_hand: eb('on_hand', '-', r.quantity), reserved: eb('reserved', '-', r.quantity) }
          : { on_hand: eb('on_hand', '-', r.quantity) },
      )
      .where('product_id', '=', r.product_id)
      .where('colour', '=', r.colour)
      .where('size', '=', r.size)
      .where((eb) =>
        from === 'held'
          ? eb.and([eb('on_hand', '>=', r.quantity), eb('reserved', '>=', r.quantity)])
          : eb(eb('on_hand', '-', eb.ref('reserved')), '>=', r.quantity),
      )
      .executeTakeFirst();
    if (Number(sold.numUpdatedRows) === 1) continue;
    const tracked = await trx
      .selectFrom('size_stock')
      .select('on_hand')
      .where('product_id', '=', r.product_id)
      .where('colour', '=', r.colour)
      .where('size', '=', r.size)
      .executeTakeFirst();
    if (!tracked) continue; // no longer tracked: made to order now
    if (from === 'held') await giveBack(trx, r);
    colourOf ??= await holdColours(trx, orderId);
    short.push(`${r.title ?? r.product_id} (${variantLabel(colourOf.get(r.id), r.size)}) × ${r.quantity}`);
  }
  return short;
}

/**
 * The colour's name each hold of an order was taken for. A hold keeps only its pool (a colour's key, or ''
 * when the colour draws on the all-colours stock), not the name bought; the order's lines have it. Each line
 * of a tracked size gave one hold, in the order of the lines, so walking both in order pairs them: a hold
 * is its first remaining line of the same product and size whose colour can draw on its pool (a line of an
 * untracked size fits no hold: it would have drawn on that same pool).
 */
async function holdColours(trx: DbOrTx, orderId: string): Promise<Map<number, string | null>> {
  const holds = await trx
    .selectFrom('stock_reservations')
    .select(['id', 'product_id', 'colour', 'size'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const lines = await trx
    .selectFrom('order_lines')
    .select(['product_id', 'colour', 'size'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const left = [...lines];
  const names = new Map<number, string | null>();
  for (const h of holds) {
    const i = left.findIndex(
      (l) =>
        l.product_id === h.product_id &&
        l.size === h.size &&
        (h.colour === ALL_COLOURS || (l.colour !== null && colourKey(l.colour) === h.colour)),
    );
    const [line] = i >= 0 ? left.splice(i, 1) : [];
    names.set(h.id, line?.colour ?? null);
  }
  return names;
}

async function releaseExpiredOf(
  trx: DbOrTx,
  productId: string,
  colour: string,
  size: string,
  now: Date,
): Promise<number> {
  const expired = await trx
    .selectFrom('stock_reservations')
    .select(['id', 'product_id', 'colour', 'size', 'quantity'])
    .where('product_id', '=', productId)
    .where('colour', '=', colour)
    .where('size', '=', size)
    .where('state', '=', 'held')
    .where('expires_at', '<', now.toISOString())
    .execute();
  let released = 0;
  for (const r of expired) {
    if (!(await claim(trx, r.id, 'held', 'released'))) continue;
    await giveBack(trx, r);
    released += 1;
  }
  return released;
}

/** Ends every hold whose time ran out (a demo checkout's 30 minutes, a Stripe session's expiry). */
export async function releaseExpiredReservations(db: Db, now: Date): Promise<number> {
  const expired = await db
    .selectFrom('stock_reservations')
    .select(['id', 'product_id', 'colour', 'size', 'quantity'])
    .where('state', '=', 'held')
    .where('expires_at', '<', now.toISOString())
    .limit(1000)
    .execute();
  let released = 0;
  for (const r of expired) {
    const done = await db.transaction().execute(async (trx) => {
      if (!(await claim(trx, r.id, 'held', 'released'))) return false;
      await giveBack(trx, r);
      return true;
    });
    if (done) released += 1;
  }
  return released;
}
