import { QUERY_STATE_ID } from '@shared/ssr-contract';
import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage, preloadProductPage } from './app/app-routes';
import { Providers } from './app/providers';
import { installErrorReporter } from './lib/error-reporter';
import { queryClient } from './lib/trpc';
import './styles.css';

installErrorReporter();
// Measuring waits for the page anyway (it starts after the load event): its code need not come with it.
void import('./lib/vitals').then(({ startVitals }) => startVitals()).catch(() => undefined);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// The server sends the answers it rendered the page with: the first render needs no round trip.
const state = document.getElementById(QUERY_STATE_ID)?.textContent;
if (state) {
  try {
    hydrate(queryClient, JSON.parse(state));
  } catch {
    // A damaged state only costs the round trips it would have saved.
  }
}

const app = (
  <StrictMode>
    <Providers>
      <App />
    </Providers>
  </StrictMode>
);
// A product's code is fetched when the shopper heads for one (pointer over or focus on its link), not with
// the home page: the click then finds it loaded, or on its way.
const headingForProduct = (event: Event) => {
  if (event.target instanceof Element && event.target.closest('a[href^="/product/"]')) {
    document.removeEventListener('pointerover', headingForProduct);
    document.removeEventListener('focusin', headingForProduct);
    void preloadProductPage().catch(() => undefined);
  }
};
document.addEventListener('pointerover', headingForProduct, { passive: true });
document.addEventListener('focusin', headingForProduct);

if (root.firstElementChild) {
  // The server's markup is already a whole page, made with the page's own chunk: with that chunk loaded
  // first, the page hydrates in one pass instead of staying inert until its code arrives. Hydrating in a
  // transition lets React yield to the browser every few milliseconds instead of holding the main thread.
  const hydratePage = () =>
    startTransition(() => {
      hydrateRoot(root, app);
    });
  // A chunk that fails to load is the page's own error to show; hydrating still makes the rest live.
  preloadPage(window.location.pathname).then(hydratePage, hydratePage);
} else {
  createRoot(root).render(app);
}
