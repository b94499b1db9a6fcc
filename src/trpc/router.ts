import { catalogueRouter } from '../modules/catalogue/catalogue.router.js';
import { siteRouter } from '../modules/site/site.router.js';
import { router } from './init.js';

export const appRouter = router({
  catalogue: catalogueRouter,
  site: siteRouter,
  // Admin procedures live under `admin.*` so the boundary shows in every call's path.
  admin: router({}),
});

export type AppRouter = typeof appRouter;
