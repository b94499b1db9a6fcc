import { type ClientRoute, clientRoutes } from '@shared/routes';
import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { SiteLayout } from '../components/layout/site-layout';
import { AboutPage } from '../features/about/about-page';
import { AccessibilityPage } from '../features/accessibility/accessibility-page';
import { HomePage } from '../features/catalogue/home-page';
// Not lazy: the server renders it for unknown addresses (with status 404), which needs it at once.
import { NotFoundPage } from '../features/not-found/not-found-page';
import { ProductPage } from '../features/product/product-page';
import { ProductSlugPage } from '../features/product/product-slug-page';

const AdminApp = lazy(() => import('../features/admin/admin-app'));
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

type Page = { component: ComponentType; layout: 'store' | 'own' };

/** One page per shared route: adding a route to src/shared/routes.ts without a page fails the type check. */
const pages: Record<ClientRoute, Page> = {
  '/': { component: HomePage, layout: 'store' },
  '/product/:id': { component: ProductPage, layout: 'store' },
  '/products/:slug': { component: ProductSlugPage, layout: 'store' },
  '/about': { component: AboutPage, layout: 'store' },
  '/accessibility': { component: AccessibilityPage, layout: 'store' },
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
          <NotFoundPage />
        </SiteLayout>
      </Route>
    </Switch>
  );
}
