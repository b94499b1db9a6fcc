import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import type { NamedSpan } from '../../shared/dashboard-period.js';
import { num } from './sql-number.js';
import type { DayRows } from './summary-day-delta.js';
import {
  deleteMonthKeys,
  ITEM_COLUMNS,
  ITEM_KEYS,
  monthItemsFromDays,
  monthSizesFromDays,
  SIZE_COLUMNS,
  SIZE_KEYS,
} from './summary-item-rows.js';

/**
 * A refresh's few days moved into their months by difference (decision 0041 "Speed"): each month row gains
 * what its key's day rows gained, instead of being summed again from the month's thousands of day rows
 * (100,000 orders: the re-sum was about 60 of a payment's 140 ms on SQLite). A month row exists exactly when
 * one of its days has the key, and its title is the greatest of theirs; a difference cannot say either when
 * a day loses a key or a key's title changes, so those few keys are summed again from their days instead.
 */

/** Beyond this many changed keys the months are summed whole: a statement's parameters stay few. */
const MAX_CHANGED_KEYS = 2_000;

type Change = {
  month: string;
  key: string[];
  values: number[];
  /** The key's title in these days after (items only). */
  title: string | null;
  /** Whether these days had the key before. */
  had: boolean;
  /**
   * Summed again from its days instead: a day lost the key or changed its title (the month's greatest title
   * may then be another day's), or the days after disagree on it (which is the greatest is the database's
   * collation to say).
   */
  again: boolean;
};

/** Per month and key, the days' values after minus before. */
function changesOf<R extends { day: string }>(
  before: readonly R[],
  after: readonly R[],
  keyOf: (r: R) => string[],
  valuesOf: (r: R) => number[],
  titleOf: (r: R) => string,
): Change[] {
  const changes = new Map<string, Change>();
  const changeOf = (r: R) => {
    const month = r.day.slice(0, 7);
    const key = keyOf(r);
    const id = JSON.stringify([month, ...key]);
    let change = changes.get(id);
    if (!change) {
      change = { month, key, values: valuesOf(r).map(() => 0), title: null, had: false, again: false };
      changes.set(id, change);
    }
    return change;
  };
  const titleAfter = new Map<string, string>();
  for (const r of after) {
    const change = changeOf(r);
    valuesOf(r).forEach((v, i) => {
      change.values[i] = (change.values[i] ?? 0) + v;
    });
    const title = titleOf(r);
    if (change.title !== null && change.title !== title) change.again = true;
    change.title = title;
    titleAfter.set(JSON.stringify([r.day, ...keyOf(r)]), title);
  }
  for (const r of before) {
    const change = changeOf(r);
    valuesOf(r).forEach((v, i) => {
      change.values[i] = (change.values[i] ?? 0) - v;
    });
    change.had = true;
    if (titleAfter.get(JSON.stringify([r.day, ...keyOf(r)])) !== titleOf(r)) change.again = true;
  }
  return [...changes.values()];
}

/** Whether the month row moves by difference: values changed, or the key is new to these days. */
function moves(c: Change): boolean {
  return !c.again && (!c.had || c.values.some((v) => v !== 0));
}

/**
 * The months of `before` and `after` (the same days' rows, before and after they were summed again) brought
 * to their days' sums: changed keys moved by their difference, lost or retitled keys summed again. False,
 * with nothing written, when too many keys changed for one statement: then the caller sums the months whole.
 */
export async function moveMonths(
  tx: Transaction<Database>,
  months: readonly NamedSpan[],
  before: DayRows,
  after: DayRows,
): Promise<boolean> {
  const names = months.map((m) => m.name);
  const items = changesOf(
    before.items,
    after.items,
    (r) => [r.currency, r.product_id, r.colour],
    (r) => [num(r.revenue_minor), num(r.units)],
    (r) => r.title,
  );
  const sizes = changesOf(
    before.sizes,
    after.sizes,
    (r) => [r.product_id, r.size],
    (r) => [num(r.sold)],
    () => '',
  );
  const changed = (list: Change[]) => list.filter((c) => c.again || moves(c)).length;
  if (changed(items) + changed(sizes) > MAX_CHANGED_KEYS) return false;
  const greatest = engineOf(tx) === 'postgres' ? 'GREATEST' : 'max';
  const movedItems = items.filter(moves);
  if (movedItems.length > 0)
    await sql`
      INSERT INTO dashboard_months (month, ${sql.raw(ITEM_COLUMNS.join(', '))})
      VALUES ${sql.join(movedItems.map((c) => sql`(${c.month}, ${sql.join(c.key)}, ${c.title ?? ''}, ${sql.join(c.values)})`))}
      ON CONFLICT (month, ${sql.raw(ITEM_KEYS.join(', '))}) DO UPDATE SET
        revenue_minor = dashboard_months.revenue_minor + excluded.revenue_minor,
        units = dashboard_months.units + excluded.units,
        title = ${sql.raw(greatest)}(dashboard_months.title, excluded.title)`.execute(tx);
  const movedSizes = sizes.filter(moves);
  if (movedSizes.length > 0)
    await sql`
      INSERT INTO dashboard_month_sizes (month, ${sql.raw(SIZE_COLUMNS.join(', '))})
      VALUES ${sql.join(movedSizes.map((c) => sql`(${c.month}, ${sql.join(c.key)}, ${sql.join(c.values)})`))}
      ON CONFLICT (month, ${sql.raw(SIZE_KEYS.join(', '))}) DO UPDATE SET
        sold = dashboard_month_sizes.sold + excluded.sold`.execute(tx);
  await sumKeysAgain(
    tx,
    names,
    items.filter((c) => c.again),
    sizes.filter((c) => c.again),
  );
  return true;
}

/** The lost or retitled keys' month rows deleted and summed again from their days (seldom any). */
async function sumKeysAgain(
  tx: Transaction<Database>,
  months: readonly string[],
  items: readonly Change[],
  sizes: readonly Change[],
): Promise<void> {
  const insert = (table: string, columns: readonly string[]) =>
    sql`INSERT INTO ${sql.table(table)} (month, ${sql.raw(columns.join(', '))})`;
  if (items.length > 0) {
    const keys = items.map((c) => c.key);
    await deleteMonthKeys('dashboard_months', months, keys).execute(tx);
    await sql`${insert('dashboard_months', ITEM_COLUMNS)} ${monthItemsFromDays(months, keys)}`.execute(tx);
  }
  if (sizes.length > 0) {
    const keys = sizes.map((c) => c.key);
    await deleteMonthKeys('dashboard_month_sizes', months, keys).execute(tx);
    await sql`${insert('dashboard_month_sizes', SIZE_COLUMNS)} ${monthSizesFromDays(months, keys)}`.execute(
      tx,
    );
  }
}
