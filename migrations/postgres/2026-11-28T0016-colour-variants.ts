import { type Kysely, sql } from 'kysely';
import { colourVariantsFromLists } from '../2026-11-28T0027-colour-variants.js';

/** As migrations/2026-11-28T0027-colour-variants.ts: colour variants, and the colour of stock, holds and wishes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE products ADD COLUMN colour_options jsonb NOT NULL DEFAULT '[]'
    CHECK (jsonb_typeof(colour_options) = 'array')`.execute(db);
  await sql`ALTER TABLE order_lines ADD COLUMN colour text`.execute(db);
  await sql`ALTER TABLE stock_reservations ADD COLUMN colour text NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE size_stock ADD COLUMN colour text NOT NULL DEFAULT '' CHECK (length(colour) <= 200)`.execute(
    db,
  );
  await sql`ALTER TABLE size_stock DROP CONSTRAINT size_stock_pkey`.execute(db);
  await sql`ALTER TABLE size_stock ADD PRIMARY KEY (product_id, colour, size)`.execute(db);
  await sql`DROP INDEX size_stock_sold_out`.execute(db);
  await sql`CREATE INDEX size_stock_sold_out ON size_stock (product_id, colour, size) WHERE on_hand <= reserved`.execute(
    db,
  );
  await sql`ALTER TABLE stock_alerts ADD COLUMN colour text NOT NULL DEFAULT '' CHECK (length(colour) <= 200)`.execute(
    db,
  );
  await sql`ALTER TABLE stock_alerts DROP CONSTRAINT stock_alerts_product_id_size_email_key`.execute(db);
  await sql`ALTER TABLE stock_alerts ADD CONSTRAINT stock_alerts_product_id_colour_size_email_key
    UNIQUE (product_id, colour, size, email)`.execute(db);
  await colourVariantsFromLists(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // One row per size: all colours' where there is one, else the first colour's.
  await sql`DELETE FROM size_stock s WHERE colour <> '' AND EXISTS (SELECT 1 FROM size_stock o
    WHERE o.product_id = s.product_id AND o.size = s.size AND o.colour < s.colour)`.execute(db);
  await sql`ALTER TABLE size_stock DROP CONSTRAINT size_stock_pkey`.execute(db);
  await sql`ALTER TABLE size_stock DROP COLUMN colour`.execute(db);
  await sql`ALTER TABLE size_stock ADD PRIMARY KEY (product_id, size)`.execute(db);
  await sql`CREATE INDEX size_stock_sold_out ON size_stock (product_id, size) WHERE on_hand <= reserved`.execute(
    db,
  );
  await sql`DELETE FROM stock_alerts s WHERE EXISTS (SELECT 1 FROM stock_alerts o WHERE o.product_id = s.product_id
    AND o.size = s.size AND o.email = s.email AND o.id < s.id)`.execute(db);
  await sql`ALTER TABLE stock_alerts DROP CONSTRAINT stock_alerts_product_id_colour_size_email_key`.execute(
    db,
  );
  await sql`ALTER TABLE stock_alerts DROP COLUMN colour`.execute(db);
  await sql`ALTER TABLE stock_alerts ADD CONSTRAINT stock_alerts_product_id_size_email_key
    UNIQUE (product_id, size, email)`.execute(db);
  await sql`ALTER TABLE stock_reservations DROP COLUMN colour`.execute(db);
  await sql`ALTER TABLE order_lines DROP COLUMN colour`.execute(db);
  await sql`ALTER TABLE products DROP COLUMN colour_options`.execute(db);
}
