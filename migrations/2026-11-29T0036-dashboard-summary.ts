import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * The owner's dashboard's summaries (issue 44, decision 0041 "Speed"): a year of trade summed per shop day
 * and per shop month, so a custom year is read from a few thousand rows instead of 170,000 lines.
 *
 * Triggers write a mark (the paid_at instant whose day must be summed again) on every write that can move
 * a figure, whoever writes: the app, a test's INSERT, a store move, the bench's bulk insert. The dashboard's
 * first read after them sums exactly those days and months again (summary-refresh.ts) and deletes the marks
 * it read, so a summary never answers for a day whose orders changed since it was summed.
 *
 * Whether an order is its address's first paid order depends on the address's earlier orders: a write of an
 * order at t can change it only for the address's earliest paid order after t (any later one has that one
 * before it either way), so that order's instant is marked too, one search in orders_email_paid.
 */
const TABLES = [
  `CREATE TABLE dashboard_dirty (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     paid_at TEXT NOT NULL
   )`,
  // The zone the summaries' days are in; NULL until the first read sums them (a changed zone voids them).
  `CREATE TABLE dashboard_state (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     zone TEXT
   )`,
  'INSERT INTO dashboard_state (id, zone) VALUES (1, NULL)',
  `CREATE TABLE dashboard_days (
     day TEXT NOT NULL,
     currency TEXT NOT NULL,
     payment_method TEXT NOT NULL,
     revenue_minor INTEGER NOT NULL,
     orders INTEGER NOT NULL,
     discounts_minor INTEGER NOT NULL,
     units INTEGER NOT NULL,
     returning_orders INTEGER NOT NULL,
     PRIMARY KEY (day, currency, payment_method)
   ) WITHOUT ROWID`,
  `CREATE TABLE dashboard_months (
     month TEXT NOT NULL,
     currency TEXT NOT NULL,
     product_id TEXT NOT NULL,
     colour TEXT NOT NULL,
     title TEXT NOT NULL,
     revenue_minor INTEGER NOT NULL,
     units INTEGER NOT NULL,
     PRIMARY KEY (month, currency, product_id, colour)
   ) WITHOUT ROWID`,
  // A day's lines per product and colour: a payment sums one day's lines again and its month from these.
  `CREATE TABLE dashboard_day_items (
     day TEXT NOT NULL,
     currency TEXT NOT NULL,
     product_id TEXT NOT NULL,
     colour TEXT NOT NULL,
     title TEXT NOT NULL,
     revenue_minor INTEGER NOT NULL,
     units INTEGER NOT NULL,
     PRIMARY KEY (day, currency, product_id, colour)
   ) WITHOUT ROWID`,
  // Sell-through's units kept (quantity − refunded_quantity) per size as the lines wrote it.
  `CREATE TABLE dashboard_day_sizes (
     day TEXT NOT NULL,
     product_id TEXT NOT NULL,
     size TEXT NOT NULL,
     sold INTEGER NOT NULL,
     PRIMARY KEY (day, product_id, size)
   ) WITHOUT ROWID`,
  'CREATE INDEX dashboard_day_sizes_product ON dashboard_day_sizes (product_id, day, size, sold)',
  `CREATE TABLE dashboard_month_sizes (
     month TEXT NOT NULL,
     product_id TEXT NOT NULL,
     size TEXT NOT NULL,
     sold INTEGER NOT NULL,
     PRIMARY KEY (month, product_id, size)
   ) WITHOUT ROWID`,
  'CREATE INDEX dashboard_month_sizes_product ON dashboard_month_sizes (product_id, month, size, sold)',
];

/** Marks `instant`, and the next paid order of `email`'s address after it (whose firstness may change). */
function markOrder(instant: 'OLD' | 'NEW'): string {
  return `
    INSERT INTO dashboard_dirty (paid_at) SELECT ${instant}.paid_at WHERE ${instant}.paid_at IS NOT NULL;
    INSERT INTO dashboard_dirty (paid_at)
      SELECT paid_at FROM orders
      WHERE lower(trim(customer_email)) = lower(trim(${instant}.customer_email)) AND paid_at > ${instant}.paid_at
      ORDER BY lower(trim(customer_email)), paid_at LIMIT 1;`;
}

/** Marks the paid_at of the line's order, when it is paid (a checkout's lines, not yet paid, mark nothing). */
function markLine(line: 'OLD' | 'NEW'): string {
  return `
    INSERT INTO dashboard_dirty (paid_at)
      SELECT paid_at FROM orders WHERE id = ${line}.order_id AND paid_at IS NOT NULL;`;
}

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
  // Sell-through's sold: a refund or a size corrected after payment moves it.
  'refunded_quantity',
  'size',
];
const changed = (columns: string[]) => columns.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');

const TRIGGERS = [
  `CREATE TRIGGER dashboard_order_insert AFTER INSERT ON orders WHEN NEW.paid_at IS NOT NULL
   BEGIN ${markOrder('NEW')} END`,
  `CREATE TRIGGER dashboard_order_update AFTER UPDATE OF ${ORDER_COLUMNS.join(', ')} ON orders
   WHEN (OLD.paid_at IS NOT NULL OR NEW.paid_at IS NOT NULL) AND (${changed(ORDER_COLUMNS)})
   BEGIN ${markOrder('OLD')} ${markOrder('NEW')} END`,
  `CREATE TRIGGER dashboard_order_delete AFTER DELETE ON orders WHEN OLD.paid_at IS NOT NULL
   BEGIN ${markOrder('OLD')} END`,
  `CREATE TRIGGER dashboard_line_insert AFTER INSERT ON order_lines BEGIN ${markLine('NEW')} END`,
  `CREATE TRIGGER dashboard_line_update AFTER UPDATE OF ${LINE_COLUMNS.join(', ')} ON order_lines
   WHEN ${changed(LINE_COLUMNS)}
   BEGIN ${markLine('OLD')} ${markLine('NEW')} END`,
  `CREATE TRIGGER dashboard_line_delete AFTER DELETE ON order_lines BEGIN ${markLine('OLD')} END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [...TABLES, ...TRIGGERS]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'order_insert',
    'order_update',
    'order_delete',
    'line_insert',
    'line_update',
    'line_delete',
  ])
    await sql.raw(`DROP TRIGGER IF EXISTS dashboard_${name}`).execute(db);
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
