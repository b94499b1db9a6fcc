import { useSyncExternalStore } from 'react';

const noChange = () => () => undefined;

/**
 * False while a page is rendered on the server and while the browser hydrates it, true from the render after.
 * What depends on the browser (its time zone, its language) is drawn as the server drew it until then, so the
 * hydration matches (a mismatch makes React throw the server's markup away) and it changes right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}
