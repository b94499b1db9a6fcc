import type { Db } from '../db/database.js';
import type { DashboardPeriod, PeriodRange, TopItem } from '../shared/dashboard.js';
import { shopDayOf } from '../shared/dashboard-period.js';

/**
 * The overview's order figures for a range worked out in JavaScript from every order and line, without the
 * dashboard's SQL or its summaries: what the summary tests hold the overview to. Small stores only.
 */
export type OracleFigures = {
  byCurrency: Map<
    string,
    { revenueMinor: number; orders: number; units: number; discountsMinor: number; days: Map<string, number> }
  >;
  customers: DashboardPeriod['customers'];
  topProducts: TopItem[];
  topColours: TopItem[];
};

type OrderRow = {
  id: string;
  paid_at: string | null;
  currency: string;
  total_minor: number | null;
  subtotal_minor: number;
  sales_minor: number;
  discount_minor: number;
  customer_email: string | null;
};

const address = (email: string | null) => (email === null ? null : email.trim().toLowerCase());

function ranked(items: TopItem[], byColour: boolean): TopItem[] {
  return items
    .sort(
      (a, b) =>
        a.currency.localeCompare(b.currency) ||
        b.revenueMinor - a.revenueMinor ||
        b.units - a.units ||
        (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0) ||
        (byColour ? (a.colour ?? '').localeCompare(b.colour ?? '') : 0),
    )
    .filter((item, i, all) => all.slice(0, i).filter((x) => x.currency === item.currency).length < 10);
}

export async function oracleFigures(db: Db, range: PeriodRange, zone: string): Promise<OracleFigures> {
  const orders = (await db
    .selectFrom('orders')
    .select([
      'id',
      'paid_at',
      'currency',
      'total_minor',
      'subtotal_minor',
      'sales_minor',
      'discount_minor',
      'customer_email',
    ])
    .where('paid_at', 'is not', null)
    .execute()) as OrderRow[];
  const lines = await db
    .selectFrom('order_lines')
    .select(['order_id', 'product_id', 'colour', 'title', 'quantity', 'line_total_minor'])
    .execute();
  const inRange = orders.filter(
    (o) => o.paid_at !== null && o.paid_at >= range.startsAt && o.paid_at < range.endsAt,
  );
  const ids = new Map(inRange.map((o) => [o.id, o]));
  const out: OracleFigures = {
    byCurrency: new Map(),
    customers: { newCustomers: 0, returning: 0 },
    topProducts: [],
    topColours: [],
  };
  for (const o of inRange) {
    const c = out.byCurrency.get(o.currency) ?? {
      revenueMinor: 0,
      orders: 0,
      units: 0,
      discountsMinor: 0,
      days: new Map<string, number>(),
    };
    const revenue = Number(o.total_minor ?? o.subtotal_minor);
    c.revenueMinor += revenue;
    c.orders += 1;
    c.discountsMinor += Number(o.sales_minor) + Number(o.discount_minor);
    const day = shopDayOf(o.paid_at ?? '', zone);
    c.days.set(day, (c.days.get(day) ?? 0) + revenue);
    out.byCurrency.set(o.currency, c);
    const mine = address(o.customer_email);
    const returning =
      mine !== null &&
      orders.some((e) => address(e.customer_email) === mine && (e.paid_at ?? '') < (o.paid_at ?? ''));
    if (returning) out.customers.returning += 1;
    else out.customers.newCustomers += 1;
  }
  const products = new Map<string, TopItem>();
  const colours = new Map<string, TopItem>();
  for (const l of lines) {
    const o = ids.get(l.order_id);
    if (!o) continue;
    const c = out.byCurrency.get(o.currency);
    if (c) c.units += Number(l.quantity);
    const add = (map: Map<string, TopItem>, colour: string | null) => {
      const key = `${o.currency} ${l.product_id} ${colour ?? ''}`;
      const item = map.get(key) ?? {
        productId: l.product_id,
        title: l.title,
        colour,
        currency: o.currency,
        revenueMinor: 0,
        units: 0,
      };
      item.revenueMinor += Number(l.line_total_minor);
      item.units += Number(l.quantity);
      if (l.title > item.title) item.title = l.title;
      map.set(key, item);
    };
    add(products, null);
    if (l.colour !== null) add(colours, l.colour);
  }
  out.topProducts = ranked([...products.values()], false);
  out.topColours = ranked([...colours.values()], true);
  return out;
}

/** The overview's figures in the oracle's shape, to compare whole. */
export function figuresOfView(period: DashboardPeriod): OracleFigures {
  const byCurrency: OracleFigures['byCurrency'] = new Map();
  for (const c of period.current) {
    if (c.orders === 0 && c.revenueMinor === 0) continue;
    byCurrency.set(c.currency, {
      revenueMinor: c.revenueMinor,
      orders: c.orders,
      units: c.units,
      discountsMinor: c.discountsMinor,
      days: new Map(c.revenueByDay.filter((d) => d.revenueMinor > 0).map((d) => [d.day, d.revenueMinor])),
    });
  }
  const byCurrencyThenPlace = (items: TopItem[]) =>
    [...items].sort((a, b) => a.currency.localeCompare(b.currency));
  return {
    byCurrency,
    customers: period.customers,
    topProducts: byCurrencyThenPlace(period.topProducts),
    topColours: byCurrencyThenPlace(period.topColours),
  };
}
