import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Tabs } from '../../components/admin/tabs';
import { Button } from '../../components/ui/button';
import { paths } from '../../lib/paths';
import { useLogout, useSignedInAdmin } from './account/use-account';
import { AuditView } from './audit/audit-view';
import { CatalogManagement } from './catalog/catalog-management';
import { LogManagement } from './logs/log-management';
import { PerformancePanel } from './logs/performance-panel';
import { OrdersPanel } from './orders/orders-panel';
import { OverviewPanel } from './overview/overview-panel';
import { ProductsPanel } from './products/products-panel';
import { ReturnsPanel } from './returns/returns-panel';
import { SettingsPanel } from './settings/settings-panel';
import { TeamPanel } from './team/team-panel';

// A chunk of its own, loaded when the tab is opened (issue 41).
const DiscountsPanel = lazy(() => import('./discounts/discounts-panel'));

/**
 * The dashboard's sections: the Overview first (issue 44: today's work and the period's figures), the catalogue
 * work, then Orders, Returns, Discounts (staff see them read-only), Settings, Logs, the Audit and the Team. Staff
 * see theirs only (the server refuses them the rest whatever this shows: decision 0030).
 */
const ALL_TABS = [
  { id: 'overview', label: 'Overview', staff: true },
  { id: 'products', label: 'Products', staff: true },
  { id: 'catalog', label: 'Catalog Management', staff: false },
  { id: 'orders', label: 'Orders', staff: true },
  { id: 'returns', label: 'Returns', staff: true },
  { id: 'discounts', label: 'Discounts', staff: true },
  { id: 'settings', label: 'Settings', staff: false },
  { id: 'logs', label: 'Logs', staff: false },
  { id: 'audit', label: 'Audit', staff: false },
  { id: 'team', label: 'Team', staff: false },
] as const;

const ROLE_LABEL = { owner: 'Owner', staff: 'Staff' } as const;

export function DashboardPage() {
  const session = useSignedInAdmin().data;
  const logout = useLogout();
  const TABS = ALL_TABS.filter((tab) => session?.role === 'owner' || tab.staff);
  const [active, setActive] = useState<(typeof ALL_TABS)[number]['id']>('overview');
  // A link may name the tab to open (?tab=returns&return=…, from an order's list of returns; ?tab=orders&step=…
  // from the Overview's counts).
  const search = useSearch();
  const [, navigate] = useLocation();
  const tabParam = new URLSearchParams(search).get('tab');
  const asked = TABS.find((tab) => tab.id === tabParam)?.id;
  useEffect(() => {
    if (asked) setActive(asked);
  }, [asked]);
  // A tab chosen by hand drops the link's address, so following the same link again opens its tab again.
  const select = (id: (typeof ALL_TABS)[number]['id']) => {
    setActive(id);
    if (search) navigate(paths.adminDashboard(), { replace: true });
  };
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="font-serif text-3xl">Admin Dashboard</h1>
          <p className="mt-1 text-sm text-muted" data-testid="admin-email">
            {session?.email}
          </p>
          {session ? (
            <p className="text-sm text-muted" data-testid="admin-role">
              {ROLE_LABEL[session.role]}
            </p>
          ) : null}
        </div>
        <Button variant="secondary" onClick={() => logout.mutate()} disabled={logout.isPending}>
          Logout
        </Button>
      </div>

      <Tabs
        label="Dashboard sections"
        tabs={TABS}
        active={active}
        onSelect={select}
        listClassName="mt-8"
        panelClassName="py-8"
        panel={(id) => <TabContent id={id} />}
      />
    </div>
  );
}

/** What each tab shows; only the open tab is rendered, so only it loads its data. */
function TabContent({ id }: { id: (typeof ALL_TABS)[number]['id'] }) {
  switch (id) {
    case 'overview':
      return <OverviewPanel />;
    case 'products':
      return <ProductsPanel />;
    case 'catalog':
      return <CatalogManagement />;
    case 'orders':
      return <OrdersPanel />;
    case 'returns':
      return <ReturnsPanel />;
    case 'discounts':
      return (
        <Suspense fallback={<div className="skeleton h-64 rounded" aria-hidden="true" />}>
          <DiscountsPanel />
        </Suspense>
      );
    case 'settings':
      return <SettingsPanel />;
    case 'audit':
      return <AuditView />;
    case 'team':
      return <TeamPanel />;
    case 'logs':
      return (
        <>
          <p className="mb-4 text-sm">
            <Link href={paths.adminLogs()} className="text-maroon hover:underline">
              Open the log on its own page
            </Link>
          </p>
          <LogManagement headingLevel={2} />
          <PerformancePanel />
        </>
      );
  }
}
