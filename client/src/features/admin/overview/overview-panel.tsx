import type { DashboardPeriodInput } from '@shared/dashboard';
import { useId, useState } from 'react';
import { LowStock } from '../products/low-stock';
import { FailedEmails } from './failed-emails';
import { HealthPanel } from './health-panel';
import { PeriodFigures } from './period-figures';
import { PeriodPicker } from './period-picker';
import { SellThroughPanel } from './sell-through-panel';
import { TodayBox } from './today-box';
import { useOverview } from './use-overview';

/**
 * The admin's first screen (issue 44): today's work, then the period's figures. Staff get the operational
 * half only: the server sends them no period (no money), and the owner's health query is not even asked.
 */
export function OverviewPanel() {
  const headingId = useId();
  const [period, setPeriod] = useState<DashboardPeriodInput>({ preset: '7d' });
  const overview = useOverview(period);
  const view = overview.data;
  return (
    <div data-testid="overview">
      {overview.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load the overview: {overview.error.message}
        </p>
      ) : null}
      {view ? <TodayBox today={view.today} /> : <div className="skeleton h-40 rounded" aria-hidden="true" />}
      {view ? <FailedEmails count={view.today.emailsFailed} /> : null}
      <LowStock />
      <section aria-labelledby={headingId} className="mt-10">
        <h2 id={headingId} className="font-serif text-2xl">
          {view?.role === 'owner' ? 'Sales' : 'Period'}
        </h2>
        <div className="mt-3">
          <PeriodPicker value={period} onChange={setPeriod} />
        </div>
        {view?.role === 'owner' ? <PeriodFigures period={view.period} /> : null}
      </section>
      <SellThroughPanel period={period} />
      {view?.role === 'owner' ? <HealthPanel period={period} /> : null}
    </div>
  );
}
