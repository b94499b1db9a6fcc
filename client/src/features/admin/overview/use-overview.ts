import type { DashboardPeriodInput, SellThroughInput } from '@shared/dashboard';
import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '../../../lib/trpc';

/**
 * The Overview's queries. Each keeps the previous answer on screen while a new period loads, so the figures
 * do not blink away when the owner changes the period.
 */
export function useOverview(period: DashboardPeriodInput) {
  return trpc.admin.dashboard.overview.useQuery(period, { placeholderData: keepPreviousData });
}

export function useSellThrough(input: SellThroughInput) {
  return trpc.admin.dashboard.sellThrough.useQuery(input, { placeholderData: keepPreviousData });
}

/** The owner's only (the log is theirs): not asked for at all for staff. */
export function useHealth(period: DashboardPeriodInput, enabled: boolean) {
  return trpc.admin.dashboard.health.useQuery(period, { enabled, placeholderData: keepPreviousData });
}

/** Products to pick for the sell-through, by the admin list's own search. */
export function useProductSearch(q: string) {
  return trpc.admin.products.list.useQuery(
    { q, sort: 'title', dir: 'asc', limit: 8 },
    { enabled: q.trim().length > 0, placeholderData: keepPreviousData },
  );
}

/** Emails that failed for good, newest first: what the "Emails failed" count is made of. */
export function useFailedEmails(enabled: boolean) {
  return trpc.admin.emails.list.useQuery({ status: 'failed', limit: 25 }, { enabled });
}
