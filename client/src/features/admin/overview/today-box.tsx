import type { DashboardToday } from '@shared/dashboard';
import { useId } from 'react';
import { Link } from 'wouter';
import { paths } from '../../../lib/paths';

type Count = {
  key: keyof DashboardToday;
  label: string;
  /** Where the count's items are listed; several when the count spans two of the list's filters. */
  links: Array<{ label: string; href: string }>;
};

const COUNTS: Count[] = [
  {
    key: 'ordersToConfirm',
    label: 'Orders to confirm',
    links: [
      { label: 'Cash on delivery to confirm', href: paths.adminOrders({ step: 'awaiting_confirmation' }) },
    ],
  },
  {
    key: 'ordersToShip',
    label: 'Orders to ship',
    links: [
      { label: 'Paid, not shipped', href: paths.adminOrders({ step: 'paid' }) },
      { label: 'Cash on delivery, confirmed', href: paths.adminOrders({ step: 'confirmed' }) },
    ],
  },
  {
    key: 'returnsWaiting',
    label: 'Returns waiting',
    links: [
      { label: 'To approve', href: paths.adminReturns('requested') },
      { label: 'To close', href: paths.adminReturns('received') },
    ],
  },
  {
    key: 'paymentsWaiting',
    label: 'Payments waiting',
    links: [
      { label: 'Bank transfers', href: paths.adminOrders({ step: 'awaiting_transfer' }) },
      // Cash on delivery counts while its cash is due: on its way, or delivered and not recorded collected.
      {
        label: 'Cash on its way',
        href: paths.adminOrders({ method: 'cash_on_delivery', step: 'shipped' }),
      },
      {
        label: 'Cash delivered, not collected',
        href: paths.adminOrders({ method: 'cash_on_delivery', step: 'delivered' }),
      },
    ],
  },
  { key: 'emailsFailed', label: 'Emails failed', links: [{ label: 'See them', href: '#failed-emails' }] },
  { key: 'lowStockSizes', label: 'Sizes low in stock', links: [{ label: 'See them', href: '#low-stock' }] },
];

/**
 * What needs doing now (staff see it too): each count with links to the lists it is made of. Sections of
 * this page (failed emails, low stock) are plain in-page links; the lists open their tab already filtered.
 */
export function TodayBox({ today }: { today: DashboardToday }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="font-serif text-2xl">
        Today
      </h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="today">
        {COUNTS.map((count) => {
          const value = today[count.key];
          return (
            <li
              key={count.key}
              className="rounded-xl border border-stone-line p-4"
              data-testid={`today-${count.key}`}
            >
              <p className="text-sm text-muted">
                {count.label}
                {count.key === 'lowStockSizes' ? ` (${today.lowStockThreshold} or fewer left)` : ''}
              </p>
              <p className="mt-1 text-3xl tabular-nums">{value}</p>
              {value > 0 ? (
                <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                  {count.links.map((link) => (
                    <li key={link.href}>
                      {link.href.startsWith('#') ? (
                        <a href={link.href} className="text-maroon underline">
                          {link.label}
                          <span className="sr-only"> ({count.label.toLowerCase()})</span>
                        </a>
                      ) : (
                        <Link href={link.href} className="text-maroon underline">
                          {link.label}
                          <span className="sr-only"> ({count.label.toLowerCase()})</span>
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
