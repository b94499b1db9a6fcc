import type { DbOrTx } from '../../db/database.js';
import { colourOptionsOf } from '../../db/json-columns.js';
import { colourKey } from '../../shared/colours.js';

/** A colour's name on the product from its key; the key itself once the colour is gone from the product. */
export async function colourNameOf(db: DbOrTx, productId: string, key: string): Promise<string> {
  const product = await db
    .selectFrom('products')
    .select('colour_options')
    .where('id', '=', productId)
    .executeTakeFirst();
  return colourOptionsOf(product?.colour_options ?? '[]').find((c) => colourKey(c.name) === key)?.name ?? key;
}
