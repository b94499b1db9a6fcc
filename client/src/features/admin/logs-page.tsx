import { LogManagement } from './logs/log-management';
import { PerformancePanel } from './logs/performance-panel';
import { OwnerOnly } from './owner-only';

/** /admin/logs: the application log and the storefront's real-user performance. */
export function LogsPage() {
  return (
    <OwnerOnly title="Log Management">
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <LogManagement />
        <PerformancePanel />
      </div>
    </OwnerOnly>
  );
}
