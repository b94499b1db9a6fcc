import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * As migrations/2026-11-29T0036-dashboard-summary.ts (decision 0041 "Speed"): the dashboard's summaries per
 * shop day and shop month, and the row triggers that mark the instants whose days must be summed again.
 * A mark is written in the writer's transaction, so it commits (or rolls back) with the write it marks.
 */
const TABLES = [
  `CREATE TABLE dashboard_dirty (
     id bigserial PRIMARY KEY,
     paid_at timestamptz NOT NULL
   )`,
  `CREATE TABLE dashboard_state (
     id integer PRIMARY KEY CHECK (id = 1),
     zone text
   )`,
  'INSERT INTO dashboard_state (id, zone) VALUES (1, NULL)',
  `CREATE TABLE dashboard_days (
     day text NOT NULL,
     currency text NOT NULL,
     payment_method text NOT NULL,
     revenue_minor bigint NOT NULL,
     orders bigint NOT NULL,
     discounts_minor bigint NOT NULL,
     units bigint NOT NULL,
     returning_orders bigint NOT NULL,
     PRIMARY KEY (day, currency, payment_method)
   )`,
  `CREATE TABLE dashboard_months (
     month text NOT NULL,
     currency text NOT NULL,
     product_id text NOT NULL,
     colour text NOT NULL,
     title text NOT NULL,
     revenue_minor bigint NOT NULL,
     units bigint NOT NULL,
     PRIMARY KEY (month, currency, product_id, colour)
   )`,
  `CREATE TABLE dashboard_day_items (
     day text NOT NULL,
     currency text NOT NULL,
     product_id text NOT NULL,
     colour text NOT NULL,
     title text NOT NULL,
     revenue_minor bigint NOT NULL,
     units bigint NOT NULL,
     PRIMARY KEY (day, currency, product_id, colour)
   )`,
  `CREATE TABLE dashboard_day_sizes (
     day text NOT NULL,
     product_id text NOT NULL,
     size text NOT NULL,
     sold bigint NOT NULL,
     PRIMARY KEY (day, product_id, size)
   )`,
  'CREATE INDEX dashboard_day_sizes_product ON dashboard_day_sizes (product_id, day, size, sold)',
  `CREATE TABLE dashboard_month_sizes (
     month text NOT NULL,
     product_id text NOT NULL,
     size text NOT NULL,
     sold bigint NOT NULL,
     PRIMARY KEY (month, product_id, size)
   )`,
  'CREATE INDEX dashboard_month_sizes_product ON dashboard_month_sizes (product_id, month, size, sold)',
];

/** Marks the row's paid_at and the next paid order of its address after it (whose firstness may change). */
const MARK_ORDER = (row: 'OLD' | 'NEW') => `
    IF ${row}.paid_at IS NOT NULL THEN
      INSERT INTO dashboard_dirty (paid_at) VALUES (${row}.paid_at);
      INSERT INTO dashboard_dirty (paid_at)
        SELECT paid_at FROM orders
        WHERE lower(trim(customer_email)) = lower(trim(${row}.customer_email)) AND paid_at > ${row}.paid_at
        ORDER BY lower(trim(customer_email)), paid_at LIMIT 1;
    END IF;`;

const MARK_LINE = (row: 'OLD' | 'NEW') => `
    INSERT INTO dashboard_dirty (paid_at)
      SELECT paid_at FROM orders WHERE id = ${row}.order_id AND paid_at IS NOT NULL;`;

const FUNCTIONS = [
  `CREATE FUNCTION dashboard_mark_order() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') THEN ${MARK_ORDER('OLD')} END IF;
     IF TG_OP IN ('INSERT', 'UPDATE') THEN ${MARK_ORDER('NEW')} END IF;
     RETURN NULL;
   END $$`,
  `CREATE FUNCTION dashboard_mark_line() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') THEN ${MARK_LINE('OLD')} END IF;
     IF TG_OP IN ('INSERT', 'UPDATE') THEN ${MARK_LINE('NEW')} END IF;
     RETURN NULL;
   END $$`,
];

const ORDER_COLUMNS = [
  'paid_at',
  'currency',
  'payment_method',
  'total_minor',
  'subtotal_minor',
  'sales_minor',
  'discount_minor',
  'customer_email',
];
const LINE_COLUMNS = [
  'order_id',
  'product_id',
  'colour',
  'title',
  'quantity',
  'line_total_minor',
  'refunded_quantity',
  'size',
];
const changed = (columns: string[]) => columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');

const TRIGGERS = [
  `CREATE TRIGGER dashboard_order_insert AFTER INSERT ON orders
   FOR EACH ROW WHEN (NEW.paid_at IS NOT NULL) EXECUTE FUNCTION dashboard_mark_order()`,
  `CREATE TRIGGER dashboard_order_update AFTER UPDATE OF ${ORDER_COLUMNS.join(', ')} ON orders
   FOR EACH ROW WHEN ((OLD.paid_at IS NOT NULL OR NEW.paid_at IS NOT NULL) AND (${changed(ORDER_COLUMNS)}))
   EXECUTE FUNCTION dashboard_mark_order()`,
  `CREATE TRIGGER dashboard_order_delete AFTER DELETE ON orders
   FOR EACH ROW WHEN (OLD.paid_at IS NOT NULL) EXECUTE FUNCTION dashboard_mark_order()`,
  `CREATE TRIGGER dashboard_line_insert_delete AFTER INSERT OR DELETE ON order_lines
   FOR EACH ROW EXECUTE FUNCTION dashboard_mark_line()`,
  `CREATE TRIGGER dashboard_line_update AFTER UPDATE OF ${LINE_COLUMNS.join(', ')} ON order_lines
   FOR EACH ROW WHEN (${changed(LINE_COLUMNS)}) EXECUTE FUNCTION dashboard_mark_line()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [...TABLES, ...FUNCTIONS, ...TRIGGERS]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS dashboard_order_insert ON orders`.execute(db);
  await sql`DROP TRIGGER IF EXISTS dashboard_order_update ON orders`.execute(db);
  await sql`DROP TRIGGER IF EXISTS dashboard_order_delete ON orders`.execute(db);
  await sql`DROP TRIGGER IF EXISTS dashboard_line_insert_delete ON order_lines`.execute(db);
  await sql`DROP TRIGGER IF EXISTS dashboard_line_update ON order_lines`.execute(db);
  await sql`DROP FUNCTION IF EXISTS dashboard_mark_order()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS dashboard_mark_line()`.execute(db);
  for (const table of [
    'dashboard_month_sizes',
    'dashboard_day_sizes',
    'dashboard_day_items',
    'dashboard_months',
    'dashboard_days',
    'dashboard_state',
    'dashboard_dirty',
  ])
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
}
