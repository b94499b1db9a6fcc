import type { DbOrTx } from '../../db/database.js';
import { colourKey } from '../../shared/colours.js';
import { CODE_REFUSAL_TEXT } from '../../shared/discounts.js';
import { holdCodeUse } from '../discounts/redemptions.repository.js';
import type { NewOrderLine } from '../orders/orders.repository.js';
import { reserveLines } from '../stock/reservations.js';

/** The code's last use went to another checkout meanwhile, or this address has used it up. */
export class CodeRefused extends Error {
  override name = 'CodeRefused';
}

/**
 * What a new order takes in its own transaction, whatever the method: its code's use (decision 0037) and
 * the units of its tracked sizes until `expiresAt`. Throws CodeRefused or StockShortage, so the order is
 * made with both or not at all.
 */
export async function holdCodeAndStock(
  trx: DbOrTx,
  hold: {
    orderId: string;
    lines: NewOrderLine[];
    code: { id: string; maxUsesPerEmail: number | null } | null;
    email: string | null;
    discountMinor: number;
    expiresAt: Date;
    now: Date;
  },
): Promise<void> {
  if (hold.code) {
    const refused = await holdCodeUse(trx, {
      discountId: hold.code.id,
      orderId: hold.orderId,
      email: hold.email,
      maxUsesPerEmail: hold.code.maxUsesPerEmail,
      amountMinor: hold.discountMinor,
      now: hold.now,
    });
    if (refused) throw new CodeRefused(CODE_REFUSAL_TEXT[refused]);
  }
  await reserveLines(trx, {
    id: hold.orderId,
    lines: hold.lines.map((l) => ({
      ...l,
      colour: l.colour === null ? null : { key: colourKey(l.colour), name: l.colour },
    })),
    expiresAt: hold.expiresAt,
    now: hold.now,
  });
}
