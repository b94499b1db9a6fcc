import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import type { RevisionReader } from '../db/store-revision.js';
import { registerPublicApiCache } from '../http/public-api-cache.js';
import { ResponseCache } from '../http/response-cache.js';
import { type ContextDeps, createContextFactory } from './context.js';
import { retryAfterMeta } from './retry-after.js';
import { type AppRouter, appRouter } from './router.js';

export const TRPC_PREFIX = '/api/trpc';

/**
 * The tRPC endpoint in a scope of its own (its body parser replaces Fastify's), with the public answers'
 * cache in front of it: public queries repeat, and are answered from memory until the storefront revision
 * moves.
 */
export async function registerTrpc(
  app: FastifyInstance,
  opts: { context: ContextDeps; revision: RevisionReader },
): Promise<void> {
  const createContext = createContextFactory(opts.context);
  const publicCache = new ResponseCache({ maxEntries: 2000, maxBytes: 24 * 1024 * 1024 });
  await app.register(async (scope) => {
    registerPublicApiCache(scope, { prefix: TRPC_PREFIX, cache: publicCache, revision: opts.revision });
    await scope.register(fastifyTRPCPlugin, {
      prefix: TRPC_PREFIX,
      trpcOptions: {
        router: appRouter,
        createContext,
        maxBatchSize: 10,
        responseMeta: retryAfterMeta,
        onError({ error, path: procedure, req }) {
          if (error.code === 'INTERNAL_SERVER_ERROR') {
            req.log.error({ err: error.cause ?? error, procedure }, 'procedure failed');
          }
        },
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>);
  });
}
