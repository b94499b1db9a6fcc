import { QUERY_STATE_ID } from '@shared/ssr-contract';
import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { Providers } from './app/providers';
import { installErrorReporter } from './lib/error-reporter';
import { queryClient } from './lib/trpc';
import { startVitals } from './lib/vitals';
import './styles.css';

installErrorReporter();
startVitals();

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
if (root.firstElementChild) {
  // The server's markup is already a whole page. Hydrating in a transition lets React yield to the browser
  // every few milliseconds instead of holding the main thread for the whole page.
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  createRoot(root).render(app);
}
