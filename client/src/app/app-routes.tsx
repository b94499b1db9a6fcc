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
// Pages a shopper reaches from the store (checkout and its results, the order page) load with their own
// small chunk, not with the home page's JavaScript.
const checkoutPage = chunkPage(
  () => import('../features/checkout/checkout-page'),
  (m) => m.CheckoutPage,
);
const resultPages = () => import('../features/checkout/result-pages');
const paymentSuccessPage = chunkPage(resultPages, (m) => m.PaymentSuccessPage);
const successPage = chunkPage(resultPages, (m) => m.SuccessPage);
const checkoutCancelPage = chunkPage(resultPages, (m) => m.CheckoutCancelPage);
const canceledPage = chunkPage(resultPages, (m) => m.CanceledPage);
const testPaymentPage = chunkPage(
  () => import('../features/checkout/test-payment-page'),
  (m) => m.TestPaymentPage,
);
const orderPage = chunkPage(
  () => import('../features/order-page/order-page'),
  (m) => m.OrderPage,
);
// The cash-on-delivery confirmation link from the email: its own chunk, it is opened on its own.
const confirmOrderPage = chunkPage(
  () => import('../features/order-page/confirm-order-page'),
  (m) => m.ConfirmOrderPage,
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
  /**
   * Pages the server cannot render whole (what they show is in the shopper's browser or behind a session
   * id): their main area is a screen high from the start, so the footer starts below the fold and cannot
   * jump as the page's data arrives (it did: a layout shift (CLS) of up to 0.66 on a phone).
   */
  reserve?: true;
};

/** One page per shared route: adding a route to src/shared/routes.ts without a page fails the type check. */
const pages: Record<ClientRoute, Page> = {
  '/': { component: HomePage, layout: 'store' },
  '/product/:id': { ...productPage, layout: 'store' },
  '/products/:slug': { ...productSlugPage, layout: 'store' },
  '/about': { ...aboutPage, layout: 'store' },
  '/accessibility': { ...accessibilityPage, layout: 'store' },
  '/checkout': { ...checkoutPage, layout: 'store', reserve: true },
  '/checkout/success': { ...paymentSuccessPage, layout: 'store', reserve: true },
  '/checkout/cancel': { ...checkoutCancelPage, layout: 'store' },
  '/success': { ...successPage, layout: 'store', reserve: true },
  '/canceled': { ...canceledPage, layout: 'store' },
  '/testpayment': { ...testPaymentPage, layout: 'store', reserve: true },
  '/order/:id': { ...orderPage, layout: 'store' },
  '/order/:id/confirm': { ...confirmOrderPage, layout: 'store', reserve: true },
  '/admin': { component: AdminEntry, layout: 'own' },
  '/admin/dashboard': { component: AdminEntry, layout: 'own' },
  '/admin/profile': { component: AdminEntry, layout: 'own' },
  '/admin/about': { component: AdminEntry, layout: 'own' },
  '/admin/logs': { component: AdminEntry, layout: 'own' },
  '/admin/invite': { component: AdminEntry, layout: 'own' },
  '/admin/orders/:id/packing-slip': { component: AdminEntry, layout: 'own' },
  '/admin/returns/:id/packing-slip': { component: AdminEntry, layout: 'own' },
};

export function AppRoutes() {
  return (
    <Switch>
      {clientRoutes.map((pattern) => {
        const { component: Component, layout, reserve } = pages[pattern];
        return (
          <Route key={pattern} path={pattern}>
            {layout === 'store' ? (
              <SiteLayout fillScreen={reserve}>
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
