import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { paths } from '../../lib/paths';
import { useLogout, useSignedInAdmin } from './account/use-account';
import { AuditView } from './audit/audit-view';
import { CatalogManagement } from './catalog/catalog-management';
import { LogManagement } from './logs/log-management';
import { PerformancePanel } from './logs/performance-panel';
import { OrdersPanel } from './orders/orders-panel';
import { LowStock } from './products/low-stock';
import { ProductsPanel } from './products/products-panel';
import { SettingsPanel } from './settings/settings-panel';
import { TeamPanel } from './team/team-panel';

/**
 * The dashboard's sections: the catalogue work first, then Orders, Settings, Logs, the Audit and the Team. Staff see theirs only
 * (the server refuses them the rest whatever this shows: decision 0030).
 */
const ALL_TABS = [
  { id: 'products', label: 'Products', staff: true },
  { id: 'catalog', label: 'Catalog Management', staff: false },
  { id: 'orders', label: 'Orders', staff: true },
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
  const [active, setActive] = useState<(typeof ALL_TABS)[number]['id']>('products');
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  // Arrow keys move between tabs, as the WAI-ARIA tabs pattern expects.
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (index + delta + TABS.length) % TABS.length;
    setActive(TABS[next]?.id ?? 'products');
    tabRefs.current[next]?.focus();
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

      <LowStock />

      <div
        role="tablist"
        aria-label="Dashboard sections"
        className="mt-8 flex flex-wrap gap-1 border-b border-stone-line"
      >
        {TABS.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`${baseId}-panel-${tab.id}`}
            tabIndex={active === tab.id ? 0 : -1}
            onClick={() => setActive(tab.id)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm ${active === tab.id ? 'border-maroon font-medium text-maroon' : 'border-transparent text-muted hover:text-ink'}`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <section
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={active !== tab.id}
          className="py-8"
        >
          {active === tab.id ? <TabContent id={tab.id} /> : null}
        </section>
      ))}
    </div>
  );
}

/** What each tab shows; only the open tab is rendered, so only it loads its data. */
function TabContent({ id }: { id: (typeof ALL_TABS)[number]['id'] }) {
  switch (id) {
    case 'products':
      return <ProductsPanel />;
    case 'catalog':
      return <CatalogManagement />;
    case 'orders':
      return <OrdersPanel />;
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
