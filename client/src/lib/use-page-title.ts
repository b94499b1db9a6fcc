import { useEffect } from 'react';
import { useSiteSettings } from '../features/site/use-site-settings';

/** Sets the tab title to "<page> · <store>", or the store name alone for the home page. */
export function usePageTitle(page: string | null) {
  const storeName = useSiteSettings().data?.storeName;
  useEffect(() => {
    if (!storeName) return;
    document.title = page ? `${page} · ${storeName}` : storeName;
  }, [page, storeName]);
}
