import { randomQuote, readSiteSettings } from '../../modules/settings/settings.repository.js';
import { publicProcedure, router } from '../init.js';

export const siteRouter = router({
  settings: publicProcedure.query(({ ctx }) => readSiteSettings(ctx.db)),
  randomQuote: publicProcedure.query(({ ctx }) => randomQuote(ctx.db)),
});
