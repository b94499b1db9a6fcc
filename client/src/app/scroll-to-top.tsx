import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

/**
 * A new page starts at the top, as it would with full page loads. Only on navigation: the page the browser
 * loaded is already where the browser put it, and a shopper may have scrolled the server's markup before
 * the script came alive (scrolling them back to the top would also move what they were about to click).
 */
export function ScrollToTop() {
  const [location] = useLocation();
  // Compared with the last location rather than a "first run" flag, so StrictMode's double effect is a no-op.
  const shown = useRef(location);
  useEffect(() => {
    if (shown.current === location) return;
    shown.current = location;
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
