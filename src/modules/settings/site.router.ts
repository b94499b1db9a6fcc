import { publicProcedure, router } from '../../trpc/init.js';
import { randomQuote, readSiteSettings } from './settings.repository.js';

export const siteRouter = router({
  settings: publicProcedure.query(({ ctx }) => readSiteSettings(ctx.db)),
  randomQuote: publicProcedure.query(({ ctx }) => randomQuote(ctx.db)),
});
