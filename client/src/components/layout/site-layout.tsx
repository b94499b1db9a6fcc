import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * `fillScreen`: the main area is at least a screen high, so the footer starts below the fold; for pages whose
 * content arrives after the first paint (the footer would otherwise be seen jumping down).
 */
export function SiteLayout({ children, fillScreen = false }: { children: ReactNode; fillScreen?: boolean }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-ink focus:px-3 focus:py-2 focus:text-ivory"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className={fillScreen ? 'min-h-svh flex-1' : 'flex-1'}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
