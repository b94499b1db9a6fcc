import { LogManagement } from './logs/log-management';
import { PerformancePanel } from './logs/performance-panel';

/** /admin/logs: the application log and the storefront's real-user performance. */
export function LogsPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <LogManagement />
      <PerformancePanel />
    </div>
  );
}
