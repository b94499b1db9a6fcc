import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import { type ContextDeps, createContextFactory } from './context.js';
import { retryAfterMeta } from './retry-after.js';
import { type AppRouter, appRouter } from './router.js';

export const TRPC_PREFIX = '/api/trpc';

/**
 * The tRPC endpoint in a scope of its own (its body parser replaces Fastify's). `inScope` adds hooks that
 * see only tRPC's requests (the public answers' cache).
 */
export async function registerTrpc(
  app: FastifyInstance,
  opts: { context: ContextDeps; inScope?: (scope: FastifyInstance) => void },
): Promise<void> {
  const createContext = createContextFactory(opts.context);
  await app.register(async (scope) => {
    opts.inScope?.(scope);
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
