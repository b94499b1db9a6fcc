import { type ClientRoute, clientRoutePattern, clientRoutes } from '@shared/routes';
import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { SiteLayout } from '../components/layout/site-layout';
import { HomePage } from '../features/catalogue/home-page';

const AdminApp = lazy(() => import('../features/admin/admin-app'));

/**
 * A page that loads with its own small chunk. `preload` lets the server's render wait for the chunk
 * (entry-server.tsx) so it renders the page itself, not the empty fallback; once loaded, the page renders
 * without suspending. The browser loads the chunk of the page it opens before hydrating (main.tsx).
 */
function chunkPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loaded: ComponentType | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = pick(module);
      return { default: loaded };
    });
  const Lazy = lazy(preload);
  function ChunkPage() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return { component: ChunkPage, preload };
}

type LazyPage = { component: ComponentType; preload: () => Promise<unknown> };

// Every page but the home page loads with its own chunk: the JavaScript before the home page stays within
// its budget (e2e/bundle-budget.spec.ts). The landing pages the server renders (product, about,
// accessibility, not found) are preloaded before they render, on the server and in the browser.
const productPage = chunkPage(
  () => import('../features/product/product-page'),
  (m) => m.ProductPage,
);
const productSlugPage = chunkPage(
  () => import('../features/product/product-slug-page'),
  (m) => m.ProductSlugPage,
);
const aboutPage = chunkPage(
  () => import('../features/about/about-page'),
  (m) => m.AboutPage,
);
const accessibilityPage = chunkPage(
  () => import('../features/accessibility/accessibility-page'),
  (m) => m.AccessibilityPage,
);
// Also what the server renders for unknown addresses (with status 404).
const notFoundPage = chunkPage(
  () => import('../features/not-found/not-found-page'),
  (m) => m.NotFoundPage,
);
const NotFoundPage = notFoundPage.component;
// Pages a shopper reaches from the store, never lands on first (the server renders only the landing pages:
// src/http/storefront-page.ts), load with their own small chunk.
const CheckoutPage = lazy(() =>
  import('../features/checkout/checkout-page').then((m) => ({ default: m.CheckoutPage })),
);
const PaymentSuccessPage = lazy(() =>
  import('../features/checkout/result-pages').then((m) => ({ default: m.PaymentSuccessPage })),
);
const SuccessPage = lazy(() =>
  import('../features/checkout/result-pages').then((m) => ({ default: m.SuccessPage })),
);
const CheckoutCancelPage = lazy(() =>
  import('../features/checkout/result-pages').then((m) => ({ default: m.CheckoutCancelPage })),
);
const CanceledPage = lazy(() =>
  import('../features/checkout/result-pages').then((m) => ({ default: m.CanceledPage })),
);
const TestPaymentPage = lazy(() =>
  import('../features/checkout/test-payment-page').then((m) => ({ default: m.TestPaymentPage })),
);
const OrderPage = lazy(() =>
  import('../features/order-page/order-page').then((m) => ({ default: m.OrderPage })),
);

function AdminEntry() {
  return (
    <Suspense fallback={null}>
      <AdminApp />
    </Suspense>
  );
}

type Page = {
  component: ComponentType;
  layout: 'store' | 'own';
  /** Loads the page's chunk, for pages with one (chunkPage). */
  preload?: () => Promise<unknown>;
};

/** One page per shared route: adding a route to src/shared/routes.ts without a page fails the type check. */
const pages: Record<ClientRoute, Page> = {
  '/': { component: HomePage, layout: 'store' },
  '/product/:id': { ...productPage, layout: 'store' },
  '/products/:slug': { ...productSlugPage, layout: 'store' },
  '/about': { ...aboutPage, layout: 'store' },
  '/accessibility': { ...accessibilityPage, layout: 'store' },
  '/checkout': { component: CheckoutPage, layout: 'store' },
  '/checkout/success': { component: PaymentSuccessPage, layout: 'store' },
  '/checkout/cancel': { component: CheckoutCancelPage, layout: 'store' },
  '/success': { component: SuccessPage, layout: 'store' },
  '/canceled': { component: CanceledPage, layout: 'store' },
  '/testpayment': { component: TestPaymentPage, layout: 'store' },
  '/order/:id': { component: OrderPage, layout: 'store' },
  '/admin': { component: AdminEntry, layout: 'own' },
  '/admin/dashboard': { component: AdminEntry, layout: 'own' },
  '/admin/profile': { component: AdminEntry, layout: 'own' },
  '/admin/about': { component: AdminEntry, layout: 'own' },
  '/admin/logs': { component: AdminEntry, layout: 'own' },
  '/admin/invite': { component: AdminEntry, layout: 'own' },
  '/admin/orders/:id/packing-slip': { component: AdminEntry, layout: 'own' },
};

export function AppRoutes() {
  return (
    <Switch>
      {clientRoutes.map((pattern) => {
        const { component: Component, layout } = pages[pattern];
        return (
          <Route key={pattern} path={pattern}>
            {layout === 'store' ? (
              <SiteLayout>
                <Suspense fallback={null}>
                  <Component />
                </Suspense>
              </SiteLayout>
            ) : (
              <Component />
            )}
          </Route>
        );
      })}
      <Route>
        <SiteLayout>
          <Suspense fallback={null}>
            <NotFoundPage />
          </Suspense>
        </SiteLayout>
      </Route>
    </Switch>
  );
}

/** Loads the chunk of the page at `pathname`, if it has one: the server renders it whole (entry-server.tsx). */
export async function preloadPage(pathname: string): Promise<void> {
  const pattern = clientRoutePattern(pathname);
  if (pattern) await pages[pattern].preload?.();
  else await notFoundPage.preload();
}

/** The product page's chunk, fetched when a shopper heads for a product (main.tsx). */
export const preloadProductPage: () => Promise<unknown> = productPage.preload;
