import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { ALL_COLOURS } from '../../shared/colours.js';
import { StockShortage } from '../stock/reservations.js';
import { colourNameOf } from './return-colours.js';

/**
 * An exchange's replacement units, held for the shopper while their parcel comes back (decision 0039). A
 * hold is size_stock.reserved, as a checkout's is, so the shop never sells the unit twice; it has no expiry
 * (it ends when the return is declined, cancelled or closed) and is counted on return_lines.held, the one
 * place that says how much this return holds. Callers run these in the transaction that moves the return.
 */

type ExchangeLine = {
  order_line_id: number;
  product_id: string;
  title: string;
  quantity: number;
  exchange_colour: string | null;
  exchange_size: string;
  held: number;
};

async function exchangeLines(trx: DbOrTx, returnId: string): Promise<ExchangeLine[]> {
  const rows = await trx
    .selectFrom('return_lines as rl')
    .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
    .select([
      'rl.order_line_id',
      'ol.product_id',
      'ol.title',
      'rl.quantity',
      'rl.exchange_colour',
      'rl.exchange_size',
      'rl.held',
    ])
    .where('rl.return_id', '=', returnId)
    .where('rl.exchange_size', 'is not', null)
    .orderBy('rl.order_line_id')
    .execute();
  return rows.flatMap((r) => (r.exchange_size === null ? [] : [{ ...r, exchange_size: r.exchange_size }]));
}

/**
 * The stock row a colour and size is sold from, as checkout picks it (reservations.ts): the colour's own
 * count, else the all-colours count, else null (not tracked). Found again at release and sale: an owner who
 * gave the colour a count of its own in between moves the hold to it, the same as every other count.
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

/**
 * Holds every replacement unit of the return. Each hold is one conditional UPDATE that only succeeds while
 * enough is left, so concurrent exchanges for the last unit give one hold on both engines. A line already
 * holding is left alone (calling twice holds once); an untracked size holds nothing. Throws StockShortage,
 * and the caller's transaction then rolls back whole.
 */
export async function holdExchangeUnits(trx: DbOrTx, returnId: string): Promise<void> {
  for (const line of await exchangeLines(trx, returnId)) {
    if (line.held > 0) continue;
    const colour = line.exchange_colour ?? ALL_COLOURS;
    const pool = await poolFor(trx, line.product_id, colour, line.exchange_size);
    if (pool === null) continue;
    const held = await trx
      .updateTable('size_stock')
      .set((eb) => ({ reserved: eb('reserved', '+', line.quantity) }))
      .where('product_id', '=', line.product_id)
      .where('colour', '=', pool)
      .where('size', '=', line.exchange_size)
      .where((eb) => eb(eb('on_hand', '-', eb.ref('reserved')), '>=', line.quantity))
      .executeTakeFirst();
    if (Number(held.numUpdatedRows) === 0) {
      const count = await trx
        .selectFrom('size_stock')
        .select(['on_hand', 'reserved'])
        .where('product_id', '=', line.product_id)
        .where('colour', '=', pool)
        .where('size', '=', line.exchange_size)
        .executeTakeFirst();
      const left = count ? Math.max(0, count.on_hand - count.reserved) : 0;
      throw new StockShortage(
        {
          productId: line.product_id,
          title: line.title,
          colour:
            colour === ALL_COLOURS
              ? null
              : { key: colour, name: await colourNameOf(trx, line.product_id, colour) },
          size: line.exchange_size,
          quantity: line.quantity,
        },
        left,
      );
    }
    await trx
      .updateTable('return_lines')
      .set({ held: line.quantity })
      .where('return_id', '=', returnId)
      .where('order_line_id', '=', line.order_line_id)
      .where('held', '=', 0)
      .execute();
  }
}

/**
 * Takes a line's held count to 0 once: the one caller whose conditional UPDATE moved it gets the count, a
 * second (or concurrent) release gets 0 and changes no stock.
 */
async function takeHeld(trx: DbOrTx, returnId: string, line: ExchangeLine): Promise<number> {
  if (line.held <= 0) return 0;
  const taken = await trx
    .updateTable('return_lines')
    .set({ held: 0 })
    .where('return_id', '=', returnId)
    .where('order_line_id', '=', line.order_line_id)
    .where('held', '=', line.held)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? line.held : 0;
}

/** Gives the held units back to the shelf (the return was declined or cancelled). Idempotent. */
export async function releaseExchangeHolds(trx: DbOrTx, returnId: string): Promise<void> {
  for (const line of await exchangeLines(trx, returnId)) {
    const units = await takeHeld(trx, returnId, line);
    if (units === 0) continue;
    const pool = await poolFor(trx, line.product_id, line.exchange_colour ?? ALL_COLOURS, line.exchange_size);
    if (pool === null) continue; // no longer tracked: nothing is counted to give back
    await trx
      .updateTable('size_stock')
      // Never below zero, even if the owner's count and the holds went out of step.
      .set({ reserved: sql<number>`CASE WHEN reserved >= ${units} THEN reserved - ${units} ELSE 0 END` })
      .where('product_id', '=', line.product_id)
      .where('colour', '=', pool)
      .where('size', '=', line.exchange_size)
      .execute();
  }
}

/** The held units leave the shop with the exchange's parcel: on hand and reserved both go down. Idempotent. */
export async function sellExchangeHolds(trx: DbOrTx, returnId: string): Promise<void> {
  for (const line of await exchangeLines(trx, returnId)) {
    const units = await takeHeld(trx, returnId, line);
    if (units === 0) continue;
    const pool = await poolFor(trx, line.product_id, line.exchange_colour ?? ALL_COLOURS, line.exchange_size);
    if (pool === null) continue;
    await trx
      .updateTable('size_stock')
      .set({
        on_hand: sql<number>`CASE WHEN on_hand >= ${units} THEN on_hand - ${units} ELSE 0 END`,
        reserved: sql<number>`CASE WHEN reserved >= ${units} THEN reserved - ${units} ELSE 0 END`,
      })
      .where('product_id', '=', line.product_id)
      .where('colour', '=', pool)
      .where('size', '=', line.exchange_size)
      .execute();
  }
}
