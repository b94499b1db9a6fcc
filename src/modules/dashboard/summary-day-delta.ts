import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { NamedSpan } from '../../shared/dashboard-period.js';
import { num } from './sql-number.js';
import {
  ITEM_COLUMNS,
  ITEM_KEYS,
  itemsFromLines,
  SIZE_COLUMNS,
  SIZE_KEYS,
  sizesFromLines,
} from './summary-item-rows.js';

/**
 * A refresh's few days summed again from their lines, but written by difference (decision 0041 "Speed"): a
 * payment changes two or three of a busy day's thousand item and size rows, and deleting and inserting all
 * of them (with their indexes) cost more than summing them (PostgreSQL at 100,000 orders: about 45 of a
 * payment's 110 ms). The rows are compared with what the table holds; only those that differ are written.
 * Returns the rows before and after, which the months move by (summary-month-delta.ts).
 */
export async function writeDaysByDifference(
  tx: Transaction<Database>,
  spans: readonly NamedSpan[],
): Promise<{ before: DayRows; after: DayRows }> {
  const before = await readDayRows(
    tx,
    spans.map((s) => s.name),
  );
  const items = (await itemsFromLines(tx, spans, 'day').execute(tx)).rows as ItemRow[];
  const sizes = (await sizesFromLines(tx, spans, 'day').execute(tx)).rows as SizeRow[];
  await writeDifference(tx, ITEMS, before.items, items);
  await writeDifference(tx, SIZES, before.sizes, sizes);
  return { before, after: { items, sizes } };
}

export type ItemRow = { day: string; currency: string; product_id: string; colour: string; title: string } & {
  revenue_minor: unknown;
  units: unknown;
};
export type SizeRow = { day: string; product_id: string; size: string; sold: unknown };

/** The days' item and size rows as they are (read before the days are summed again; summed after). */
export type DayRows = { items: ItemRow[]; sizes: SizeRow[] };

async function readDayRows(tx: Transaction<Database>, days: readonly string[]): Promise<DayRows> {
  const items = await tx
    .selectFrom('dashboard_day_items')
    .select(['day', 'currency', 'product_id', 'colour', 'title', 'revenue_minor', 'units'])
    .where('day', 'in', days)
    .execute();
  const sizes = await tx
    .selectFrom('dashboard_day_sizes')
    .select(['day', 'product_id', 'size', 'sold'])
    .where('day', 'in', days)
    .execute();
  return { items, sizes };
}

type Table<R> = {
  name: 'dashboard_day_items' | 'dashboard_day_sizes';
  /** The primary key's columns, day first. */
  keys: readonly (keyof R & string)[];
  /** Every column in insert order (the keys among them). */
  columns: readonly (keyof R & string)[];
  valuesOf: (r: R) => (string | number)[];
};

const ITEMS: Table<ItemRow> = {
  name: 'dashboard_day_items',
  keys: ['day', ...ITEM_KEYS],
  columns: ['day', ...ITEM_COLUMNS],
  valuesOf: (r) => [r.day, r.currency, r.product_id, r.colour, r.title, num(r.revenue_minor), num(r.units)],
};

const SIZES: Table<SizeRow> = {
  name: 'dashboard_day_sizes',
  keys: ['day', ...SIZE_KEYS],
  columns: ['day', ...SIZE_COLUMNS],
  valuesOf: (r) => [r.day, r.product_id, r.size, num(r.sold)],
};

/** Rows per statement: a few columns each, well under either engine's limit on parameters. */
const ROWS_PER_STATEMENT = 500;

/** `after` written over `before` (the table's rows of the same days): changed and new rows, lost ones. */
async function writeDifference<R>(
  tx: Transaction<Database>,
  table: Table<R>,
  before: readonly R[],
  after: readonly R[],
): Promise<void> {
  const idOf = (r: R) => JSON.stringify(table.keys.map((k) => r[k]));
  const held = new Map(before.map((r) => [idOf(r), JSON.stringify(table.valuesOf(r))]));
  const changed: (string | number)[][] = [];
  for (const r of after) {
    const id = idOf(r);
    const values = table.valuesOf(r);
    if (held.get(id) !== JSON.stringify(values)) changed.push(values);
    held.delete(id);
  }
  const lost = [...held.keys()].map((id) => JSON.parse(id) as string[]);
  const keys = sql.raw(table.keys.join(', '));
  const others = table.columns.filter((c) => !table.keys.includes(c));
  for (let i = 0; i < lost.length; i += ROWS_PER_STATEMENT) {
    const rows = lost.slice(i, i + ROWS_PER_STATEMENT).map((k) => sql`(${sql.join(k)})`);
    await sql`DELETE FROM ${sql.table(table.name)} WHERE (${keys}) IN (VALUES ${sql.join(rows)})`.execute(tx);
  }
  for (let i = 0; i < changed.length; i += ROWS_PER_STATEMENT) {
    const rows = changed.slice(i, i + ROWS_PER_STATEMENT).map((v) => sql`(${sql.join(v)})`);
    await sql`
      INSERT INTO ${sql.table(table.name)} (${sql.raw(table.columns.join(', '))}) VALUES ${sql.join(rows)}
      ON CONFLICT (${keys}) DO UPDATE SET
        ${sql.join(others.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}`.execute(tx);
  }
}
