import { clipDescription } from '@shared/clip-text';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { useSiteSettings } from './use-site-settings';

type HeadOptions = {
  /** The page's own description; otherwise the store's (tagline, about text or name), as the server says. */
  description?: string | null;
  /** Pages with a canonical address (home, about, a product): the current path. Others have none. */
  canonical?: boolean;
  /** The query string the canonical address keeps ("?colour=teal"): a page a parameter makes its own. */
  canonicalSearch?: string;
  /** Pages that must stay out of search engines (a shopper's order behind its private link). */
  noindex?: boolean;
};

/**
 * The server sends each landing page with its title, description and canonical link (src/http/seo.ts). After
 * a navigation inside the store those must follow the route, or a shared or bookmarked page would claim to be
 * the one first loaded. The canonical origin is the server's (PUBLIC_URL), read from the first page's link.
 */
const canonicalOrigin = (() => {
  if (typeof document === 'undefined') return '';
  const href = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  try {
    return href ? new URL(href).origin : window.location.origin;
  } catch {
    return window.location.origin;
  }
})();

function headElement<T extends HTMLElement>(selector: string, create: () => T): T {
  const found = document.head.querySelector<T>(selector);
  if (found) return found;
  const made = create();
  document.head.append(made);
  return made;
}

/** Sets the tab title to "<page> · <store>" (the home page: "<store> · <tagline>"), the description and the canonical link. */
export function usePageTitle(page: string | null, options: HeadOptions = {}) {
  const settings = useSiteSettings().data;
  const [pathname] = useLocation();
  const { description, canonical = false, canonicalSearch = '', noindex = false } = options;
  const storeName = settings?.storeName;
  const tagline = settings?.tagline ?? '';
  const storeDescription = settings ? settings.tagline || settings.aboutText || settings.storeName : '';

  useEffect(() => {
    if (!storeName) return;
    document.title = page ? `${page} · ${storeName}` : tagline ? `${storeName} · ${tagline}` : storeName;
    const text = clipDescription(description || storeDescription);
    const meta = headElement('meta[name="description"]', () => {
      const m = document.createElement('meta');
      m.name = 'description';
      return m;
    });
    meta.content = text;
  }, [page, storeName, tagline, description, storeDescription]);

  useEffect(() => {
    const existing = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (!canonical) {
      existing?.remove();
      return;
    }
    const link = headElement('link[rel="canonical"]', () => {
      const l = document.createElement('link');
      l.rel = 'canonical';
      return l;
    });
    link.href = `${canonicalOrigin}${pathname}${canonicalSearch}`;
  }, [canonical, pathname, canonicalSearch]);

  useEffect(() => {
    if (!noindex) return;
    const meta = headElement('meta[name="robots"]', () => {
      const m = document.createElement('meta');
      m.name = 'robots';
      return m;
    });
    meta.content = 'noindex';
    return () => meta.remove();
  }, [noindex]);
}
