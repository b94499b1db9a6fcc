import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * What the owner's dashboard reads at 100,000 orders (issue 44, decision 0041 "Speed", measured by
 * scripts/bench/dashboard-queries.ts). Each index holds every column its queries read, so SQLite answers
 * from the index alone instead of fetching each order's row (its rows carry addresses and are wide).
 */
const INDEXES = [
  // Today's counts: the open orders by their payment step (stepCondition reads these three columns).
  'CREATE INDEX orders_open_steps ON orders (status, fulfilment, payment_method)',
  // The period's totals and payment mix: paid orders in a range of paid_at, what they were charged.
  `CREATE INDEX orders_paid_figures ON orders
     (paid_at, currency, payment_method, total_minor, subtotal_minor, sales_minor, discount_minor, id)`,
  // Revenue per day: one search per day and currency. Without it SQLite built an automatic index on
  // currency alone and read every order of the currency for each day (10 s for a year).
  'CREATE INDEX orders_currency_paid ON orders (currency, paid_at, total_minor, subtotal_minor, id)',
  // New or returning: whether an address had a paid order before a given instant, one seek an order.
  'CREATE INDEX orders_email_paid ON orders (lower(trim(customer_email)), paid_at)',
  // Web vitals p75 over a period.
  'CREATE INDEX web_vitals_time_metric ON web_vitals (time, metric, value)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of INDEXES) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'orders_open_steps',
    'orders_paid_figures',
    'orders_currency_paid',
    'orders_email_paid',
    'web_vitals_time_metric',
  ])
    await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
}
