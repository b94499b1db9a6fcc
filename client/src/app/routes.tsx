import type { ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { type ClientRoute, clientRoutes } from '../../../src/shared/routes';
import { HomePage } from '../features/catalogue/home-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { ProductPage } from '../features/product/product-page';

/** One page per shared route: adding a route to src/shared/routes.ts without a page fails the type check. */
const pages: Record<ClientRoute, ComponentType> = {
  '/': HomePage,
  '/product/:id': ProductPage,
};

export function AppRoutes() {
  return (
    <Switch>
      {clientRoutes.map((pattern) => (
        <Route key={pattern} path={pattern} component={pages[pattern]} />
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}
