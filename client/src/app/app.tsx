import { useEffect } from 'react';
import { Toaster } from '../components/ui/toaster';
import { AppRoutes } from './app-routes';
import { ScrollToTop } from './scroll-to-top';

/** The whole page tree, the same in the browser and in the server's render (entry-server.tsx). */
export function App() {
  // Effects run once the tree is live (hydrated or rendered): from here on, controls respond.
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
  }, []);
  return (
    <>
      <ScrollToTop />
      <AppRoutes />
      <Toaster />
    </>
  );
}
