import { useEffect } from 'react';
import { useLocation } from 'wouter';

/** A new page starts at the top, as it would with full page loads. */
export function ScrollToTop() {
  const [location] = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect must run on every navigation.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
