import type { LogLevelName } from '@shared/logs';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/** How often the log follows new entries while "Follow new entries" is on. */
const LIVE_INTERVAL_MS = 5000;

export type LogFilter = {
  q?: string | undefined;
  source?: string | undefined;
  level?: LogLevelName | undefined;
};

/** The logs area's queries and mutations: the application log and the shoppers' web vitals. */
export function useLogList(filter: LogFilter, live: boolean) {
  const list = trpc.admin.logs.list.useInfiniteQuery(
    { ...filter, limit: 50 },
    {
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      staleTime: 0,
      refetchInterval: live ? LIVE_INTERVAL_MS : false,
    },
  );
  return {
    list,
    items: list.data?.pages.flatMap((p) => p.items),
    total: list.data?.pages[0]?.total ?? null,
  };
}

export type LogEntry = NonNullable<ReturnType<typeof useLogList>['items']>[number];

export function useLogSources(live: boolean) {
  return trpc.admin.logs.sources.useQuery(undefined, {
    staleTime: 0,
    refetchInterval: live ? LIVE_INTERVAL_MS : false,
  });
}

export function useClearLogs(onDone: () => void) {
  const utils = trpc.useUtils();
  return trpc.admin.logs.clear.useMutation({
    onSuccess() {
      toast.success('All logs have been cleared');
      onDone();
      void utils.admin.logs.invalidate();
    },
    onError() {
      toast.error('Could not clear the logs. Please try again.');
    },
  });
}

export function usePerformanceSummary(days: 7 | 30) {
  return trpc.admin.performance.summary.useQuery({ days }, { staleTime: 0 });
}

export type VitalRow = NonNullable<ReturnType<typeof usePerformanceSummary>['data']>['rows'][number];
