import { accountRouter } from '../modules/auth/account.router.js';
import { authRouter } from '../modules/auth/auth.router.js';
import { catalogueRouter } from '../modules/catalogue/catalogue.router.js';
import { siteRouter } from '../modules/site/site.router.js';
import { router } from './init.js';

export const appRouter = router({
  catalogue: catalogueRouter,
  site: siteRouter,
  auth: authRouter,
  // Every admin procedure lives under `admin.*` so the boundary shows in every call's path.
  admin: router({
    account: accountRouter,
  }),
});

export type AppRouter = typeof appRouter;
