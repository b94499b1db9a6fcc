import type { CurrencyFigures, DashboardPeriod, TopItem } from '@shared/dashboard';
import { formatMoney } from '@shared/money';
import { PAYMENT_METHOD_LABEL, PAYMENT_METHODS } from '@shared/payment-methods';
import { useId } from 'react';
import { type Column, DataTable } from '../../../components/admin/data-table';
import { RevenueChart } from './charts/revenue-chart';
import { type Change, change, currenciesShown, figuresBefore, rangeLabel } from './figures';

/** A method's name as the orders list says it; one the client does not know yet, as the server sent it. */
function methodLabel(method: string): string {
  const known = PAYMENT_METHODS.find((m) => m === method);
  return known ? PAYMENT_METHOD_LABEL[known] : method;
}

const ARROW: Record<Change['direction'], string> = { up: '↑', down: '↓', same: '→', new: '↑' };

/** One figure with its change on the period before; the arrow is decoration, the words say it. */
function Figure({
  label,
  value,
  now,
  before,
  testId,
}: {
  label: string;
  value: string;
  now: number;
  before: number;
  testId?: string;
}) {
  const moved = change(now, before);
  return (
    <div className="rounded-xl border border-stone-line p-3" data-testid={testId}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-2xl tabular-nums">{value}</dd>
      <dd className="text-xs text-muted">
        <span aria-hidden="true">{ARROW[moved.direction]} </span>
        {moved.text}
        {moved.direction === 'new' ? null : <span className="sr-only"> on the period before</span>}
      </dd>
    </div>
  );
}

function CurrencySection({ now, before }: { now: CurrencyFigures; before: CurrencyFigures }) {
  const headingId = useId();
  const money = (minor: number) => formatMoney(minor, now.currency);
  return (
    <section aria-labelledby={headingId} className="mt-6" data-testid={`period-${now.currency}`}>
      <h3 id={headingId} className="text-lg font-medium">
        Sales in {now.currency.toUpperCase()}
      </h3>
      <dl className="mt-3 grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-3">
        <Figure
          label="Revenue"
          value={money(now.revenueMinor)}
          now={now.revenueMinor}
          before={before.revenueMinor}
          testId="figure-revenue"
        />
        <Figure
          label="Orders"
          value={String(now.orders)}
          now={now.orders}
          before={before.orders}
          testId="figure-orders"
        />
        <Figure
          label="Average order"
          value={money(now.averageOrderMinor)}
          now={now.averageOrderMinor}
          before={before.averageOrderMinor}
        />
        <Figure
          label="Units sold"
          value={String(now.units)}
          now={now.units}
          before={before.units}
          testId="figure-units"
        />
        <Figure
          label="Refunded"
          value={money(now.refundedMinor)}
          now={now.refundedMinor}
          before={before.refundedMinor}
        />
        <Figure
          label="Discounts given"
          value={money(now.discountsMinor)}
          now={now.discountsMinor}
          before={before.discountsMinor}
        />
      </dl>
      {now.revenueByDay.length > 0 ? <RevenueChart figures={now} /> : null}
    </section>
  );
}

function topColumns(kind: 'product' | 'colour'): Array<Column<TopItem>> {
  return [
    {
      id: 'name',
      header: kind === 'product' ? 'Product' : 'Colour',
      cell: (t) => (kind === 'colour' ? `${t.title} — ${t.colour ?? ''}` : t.title),
    },
    {
      id: 'units',
      header: 'Units',
      headerClassName: 'text-right',
      cellClassName: 'text-right tabular-nums',
      cell: (t) => t.units,
    },
    {
      id: 'revenue',
      header: 'Revenue',
      headerClassName: 'text-right',
      cellClassName: 'text-right tabular-nums',
      cell: (t) => formatMoney(t.revenueMinor, t.currency),
    },
  ];
}

/** The owner's half of the Overview: the period's money, per currency, never summed across currencies. */
export function PeriodFigures({ period }: { period: DashboardPeriod }) {
  const currencies = currenciesShown(period.current, period.before);
  const returnsMoved = change(period.returns, period.returnsBefore);
  return (
    <div data-testid="period-figures">
      <p className="mt-2 text-sm text-muted" data-testid="period-range">
        {rangeLabel(period.range)}, compared with {rangeLabel(period.previous)}
      </p>
      {currencies.length === 0 ? (
        <p className="mt-4 text-sm">No paid orders in this period or the one before.</p>
      ) : (
        currencies.map((currency) => {
          const now = period.current.find((f) => f.currency === currency) ?? figuresBefore([], currency);
          return <CurrencySection key={currency} now={now} before={figuresBefore(period.before, currency)} />;
        })
      )}
      <dl className="mt-6 grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-3">
        <div className="rounded-xl border border-stone-line p-3" data-testid="figure-returns">
          <dt className="text-sm text-muted">Returns asked for</dt>
          <dd className="mt-1 text-2xl tabular-nums">{period.returns}</dd>
          <dd className="text-xs text-muted">
            {returnsMoved.text}
            {returnsMoved.direction === 'new' ? null : <span className="sr-only"> on the period before</span>}
          </dd>
        </div>
        <div className="rounded-xl border border-stone-line p-3" data-testid="figure-customers">
          <dt className="text-sm text-muted">Orders from customers</dt>
          <dd className="mt-1 text-sm">
            <span className="text-2xl tabular-nums">{period.customers.newCustomers}</span> new,{' '}
            <span className="text-2xl tabular-nums">{period.customers.returning}</span> returning
          </dd>
        </div>
      </dl>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        {/* min-w-0: a grid item may be narrower than its table, which scrolls inside it at 320 px. */}
        <div className="min-w-0">
          <h3 className="text-lg font-medium">Top products</h3>
          <DataTable
            label="Top products"
            columns={topColumns('product')}
            rows={period.topProducts}
            rowKey={(t) => `${t.productId}-${t.currency}`}
            empty={<p className="text-muted">Nothing sold in this period.</p>}
            testId="top-products"
          />
        </div>
        <div className="min-w-0">
          <h3 className="text-lg font-medium">Top colours</h3>
          <DataTable
            label="Top colours"
            columns={topColumns('colour')}
            rows={period.topColours}
            rowKey={(t) => `${t.productId}-${t.colour ?? ''}-${t.currency}`}
            empty={<p className="text-muted">Nothing sold in this period.</p>}
            testId="top-colours"
          />
        </div>
      </div>
      <h3 className="mt-6 text-lg font-medium">Payment methods</h3>
      <DataTable
        label="Payment methods"
        columns={[
          { id: 'method', header: 'Method', cell: (p) => methodLabel(p.method) },
          {
            id: 'orders',
            header: 'Orders',
            headerClassName: 'text-right',
            cellClassName: 'text-right tabular-nums',
            cell: (p) => p.orders,
          },
          {
            id: 'revenue',
            header: 'Revenue',
            headerClassName: 'text-right',
            cellClassName: 'text-right tabular-nums',
            cell: (p) => formatMoney(p.revenueMinor, p.currency),
          },
        ]}
        rows={period.paymentMix}
        rowKey={(p) => `${p.method}-${p.currency}`}
        empty={<p className="text-muted">No paid orders in this period.</p>}
        testId="payment-mix"
      />
    </div>
  );
}
