import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { paths } from '../../lib/paths';
import { useSiteSettings } from '../../lib/use-site-settings';
import { AdminMenu } from './admin-menu';

export function AdminLayout({ children }: { children: ReactNode }) {
  const settings = useSiteSettings();
  return (
    <div className="flex min-h-screen flex-col bg-ivory">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-ink focus:px-3 focus:py-2 focus:text-ivory"
      >
        Skip to content
      </a>
      <header className="border-b border-stone-line bg-white/70">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
          <AdminMenu />
          <Link href={paths.home()} className="font-serif text-lg tracking-[0.1em] uppercase">
            {settings.data?.storeName ?? 'Store'}
          </Link>
          <span className="rounded-full bg-maroon px-2 py-0.5 text-[11px] font-medium tracking-wide text-ivory uppercase">
            Admin
          </span>
        </div>
      </header>
      <main id="admin-main" className="flex-1">
        {children}
      </main>
    </div>
  );
}
