import type { FastifyRequest } from 'fastify';
import { PUBLIC_QUERIES } from '../core/public-queries.js';
import { keepOutOfResponseCaches } from '../http/response-cache.js';
import { memorySession } from '../modules/auth/session.js';
import type { ServerQuery } from '../shared/ssr-contract.js';
import { type ContextDeps, requestServices } from './context.js';
import { createCallerFactory } from './init.js';
import { appRouter } from './router.js';

const createCaller = createCallerFactory(appRouter);

/**
 * Runs public queries in-process for the server's page render, as an anonymous shopper: no session, no
 * admin, whatever cookie the request carried. Anything outside PUBLIC_QUERIES answers undefined, so the
 * render can never reach an admin or session procedure.
 */
export function publicQueries(
  deps: ContextDeps,
  req: FastifyRequest,
  opts: {
    /** Told the time the public-query gate charged for each call. */
    gateCharged?: (ms: number) => void;
    /** The storefront revision the request has read already (the public API cache reads it first). */
    revision?: string;
  } = {},
): ServerQuery {
  const { gateCharged } = opts;
  const caller = createCaller({
    ...requestServices(deps, opts.revision),
    log: req.log,
    session: memorySession(),
    admin: null,
    ip: req.ip,
    requestId: String(req.id),
    keepOutOfResponseCaches: () => keepOutOfResponseCaches(req),
    ...(gateCharged ? { gateCharged } : {}),
  });
  return async (path, input) => {
    if (!PUBLIC_QUERIES.has(path)) return undefined;
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
