import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers';
import { AppRoutes } from './app/routes';
import { ScrollToTop } from './app/scroll-to-top';
import { Toaster } from './components/ui/toaster';
import { installErrorReporter } from './lib/error-reporter';
import { startVitals } from './lib/vitals';
import './styles.css';

installErrorReporter();
startVitals();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <ScrollToTop />
      <AppRoutes />
      <Toaster />
    </Providers>
  </StrictMode>,
);
