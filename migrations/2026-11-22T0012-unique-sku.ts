import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * One product per SKU (decision 0012): a unique index on products.sku, compared as SQLite's NOCASE compares
 * (ASCII letters ignoring case), leaving blank SKUs out so that any number of products may have none.
 *
 * A store that already holds duplicates must still start, and lose nothing: the oldest product (created_at,
 * then id) keeps the SKU, each later one gets the first free "-2", "-3"... suffix. Every rename is kept in
 * sku_renames, written to the admin log as a warning and printed at start-up, so the owner can put the right
 * SKUs back by hand.
 */

const INDEX = 'products_sku_unique';
/** The form's limit on a SKU; a suffixed SKU stays within it so the product can still be saved as it is. */
const MAX_SKU_LENGTH = 100;
const MIGRATION = '2026-11-22T0012-unique-sku';

/** NOCASE folds only A-Z; this is the same key (the app's skuKey, copied: migrations import nothing). */
const key = (sku: string) => sku.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `sku` with `-n`, its end cut (whole code points) when the result would pass the form's limit. */
function withSuffix(sku: string, n: number): string {
  const suffix = `-${n}`;
  const points = Array.from(sku);
  while (points.length > 0 && points.join('').length + suffix.length > MAX_SKU_LENGTH) points.pop();
  return `${points.join('')}${suffix}`;
}

type Row = { id: string; title: string; sku: string };
type Rename = { product: Row; newSku: string; keptBy: Row };

/** The renames that leave every non-blank SKU unique: later products (by created_at, then id) give way. */
function plan(rows: readonly Row[]): Rename[] {
  const taken = new Set(rows.map((r) => key(r.sku)));
  const first = new Map<string, Row>();
  const renames: Rename[] = [];
  for (const row of rows) {
    const keptBy = first.get(key(row.sku));
    if (!keptBy) {
      first.set(key(row.sku), row);
      continue;
    }
    let n = 2;
    while (taken.has(key(withSuffix(row.sku, n)))) n += 1;
    const newSku = withSuffix(row.sku, n);
    taken.add(key(newSku));
    renames.push({ product: row, newSku, keptBy });
  }
  return renames;
}

const message = (r: Rename) =>
  `SKU "${r.product.sku}" of "${r.product.title}" was renamed to "${r.newSku}": "${r.keptBy.title}" already used it`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const now = new Date().toISOString();
  const renames = await db.transaction().execute(async (trx) => {
    await sql`
      CREATE TABLE IF NOT EXISTS sku_renames (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        product_id TEXT NOT NULL,
        product_title TEXT NOT NULL,
        old_sku TEXT NOT NULL,
        new_sku TEXT NOT NULL,
        kept_by_product_id TEXT NOT NULL,
        renamed_at TEXT NOT NULL
      ) STRICT
    `.execute(trx);
    const rows = await sql<Row>`
      SELECT id, title, sku FROM products WHERE trim(sku) <> '' ORDER BY created_at, id
    `.execute(trx);
    const planned = plan(rows.rows);
    for (const r of planned) {
      await sql`UPDATE products SET sku = ${r.newSku}, updated_at = ${now} WHERE id = ${r.product.id}`.execute(
        trx,
      );
      await sql`
        INSERT INTO sku_renames (product_id, product_title, old_sku, new_sku, kept_by_product_id, renamed_at)
        VALUES (${r.product.id}, ${r.product.title}, ${r.product.sku}, ${r.newSku}, ${r.keptBy.id}, ${now})
      `.execute(trx);
      const details = JSON.stringify({
        migration: MIGRATION,
        product: r.product.id,
        oldSku: r.product.sku,
        newSku: r.newSku,
        keptBy: r.keptBy.id,
      });
      await sql`
        INSERT INTO logs (time, level, source, message, details, last_time)
        VALUES (${now}, 'warning', 'migration', ${message(r)}, ${details}, ${now})
      `.execute(trx);
    }
    await sql`
      CREATE UNIQUE INDEX IF NOT EXISTS ${sql.raw(INDEX)} ON products (sku COLLATE NOCASE) WHERE trim(sku) <> ''
    `.execute(trx);
    return planned;
  });
  if (renames.length > 0) {
    // Start-up output is where an operator looks first; the admin log and sku_renames keep the full list.
    const listed = renames.slice(0, 20).map((r) => `\n  ${message(r)}`);
    const more = renames.length > 20 ? `\n  ...and ${renames.length - 20} more` : '';
    console.warn(
      `Migration ${MIGRATION}: ${renames.length} product(s) shared a SKU with an older product and were renamed (see the admin log, or the sku_renames table):${listed.join('')}${more}`,
    );
  }
}

/** Drops the index and the report; renamed SKUs keep their new names (the old ones are in the log). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS ${sql.raw(INDEX)}`.execute(db);
  await sql`DROP TABLE IF EXISTS sku_renames`.execute(db);
}
