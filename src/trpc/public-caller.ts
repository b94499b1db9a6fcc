import type { FastifyRequest } from 'fastify';
import { PUBLIC_QUERIES } from '../core/public-queries.js';
import { keepOutOfResponseCaches } from '../core/uncacheable-requests.js';
import { memorySession } from '../modules/auth/session.js';
import type { ServerQuery } from '../shared/ssr-contract.js';
import { type Context, type ContextDeps, requestServices } from './context.js';
import { createCallerFactory, throughPublicGate } from './init.js';
import { type PublicQueryContext, runOnRawInput } from './public-query.js';
import { appRouter } from './router.js';
import { catalogueQueries } from './routers/catalogue.router.js';

const createCaller = createCallerFactory(appRouter);

type DirectContext = PublicQueryContext & Pick<Context, 'limits' | 'ip' | 'gateCharged'>;

type DirectRun = (ctx: DirectContext, input: unknown) => Promise<unknown>;

/**
 * The public queries every listing asks (a batch of both on each change of a filter), run as their
 * procedures run them (input validated, then the body, in their turn at the public-query gate) but without
 * tRPC's caller: its proxy and middleware chain cost as much as the facet counts themselves.
 */
const DIRECT = new Map<string, DirectRun>([
  ['catalogue.search', (ctx, input) => runOnRawInput(catalogueQueries.search, ctx, input)],
  ['catalogue.facets', (ctx, input) => runOnRawInput(catalogueQueries.facets, ctx, input)],
]);

/**
 * Runs public queries in-process for the server's page render and the public API cache, as an anonymous
 * shopper: no session, no admin, whatever cookie the request carried. Anything outside PUBLIC_QUERIES
 * answers undefined, so neither can ever reach an admin or session procedure.
 */
export function publicQueries(
  deps: ContextDeps,
  req: FastifyRequest,
  opts: {
    /** Told the time the public-query gate charged for each call. */
    gateCharged?: (ms: number) => void;
    /** The storefront revision the request has read already (the public API cache reads it first). */
    revision?: string;
    /**
     * Queries answered beside PUBLIC_QUERIES, for a page that is never kept by any cache: the shopper's
     * order page answers orderPage.view with the token of its own address (http/order-page.ts).
     */
    private?: ReadonlySet<string>;
  } = {},
): ServerQuery {
  const { gateCharged } = opts;
  const services = requestServices(deps, opts.revision);
  const keepOut = () => keepOutOfResponseCaches(req);
  let direct: DirectContext | undefined;
  let caller: ReturnType<typeof createCaller> | undefined;
  return async (path, input) => {
    if (!PUBLIC_QUERIES.has(path) && !opts.private?.has(path)) return undefined;
    const run = DIRECT.get(path);
    if (run) {
      direct ??= {
        db: services.db,
        log: req.log,
        keepOutOfResponseCaches: keepOut,
        limits: services.limits,
        ip: req.ip,
        ...(services.storefrontRevision ? { storefrontRevision: services.storefrontRevision } : {}),
        ...(gateCharged ? { gateCharged } : {}),
      };
      const ctx = direct;
      return throughPublicGate(ctx, () => run(ctx, input));
    }
    caller ??= createCaller({
      ...services,
      log: req.log,
      session: memorySession(),
      admin: null,
      ip: req.ip,
      requestId: String(req.id),
      keepOutOfResponseCaches: keepOut,
      ...(gateCharged ? { gateCharged } : {}),
    });
    let target: unknown = caller;
    for (const segment of path.split('.')) {
      // tRPC's caller is a proxy of functions: each segment is a property of the one before.
      target =
        (typeof target === 'object' || typeof target === 'function') && target !== null
          ? Reflect.get(target, segment)
          : undefined;
    }
    if (typeof target !== 'function') return undefined;
    return (target as (input: unknown) => Promise<unknown>)(input);
  };
}
