import type { FastifyInstance } from 'fastify';
import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from '../core/failures.js';
import type { Db } from '../db/database.js';
import { checkReadiness } from '../ops/readiness.js';

/**
 * /healthz: the process is up and answering (liveness: no database, nothing that can be slow), for a
 * supervisor that restarts a hung process. /readyz: this process can take orders (database reachable, schema
 * current, data folder writable), for a load balancer or monitor; 503 names the failing check. With REDIS_URL
 * its body says whether Redis is `up` or `down`: a process without Redis still takes orders (only sign-in
 * answers 503, decision 0017), so it stays ready, and a monitor alerts on the field instead.
 * Neither is ever cached.
 */
export function registerHealth(
  app: FastifyInstance,
  opts: { db: Db; dataDir: string; redisAvailable?: () => boolean },
): void {
  app.get('/healthz', async (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get('/readyz', async (_req, reply) => {
    const result = await checkReadiness(opts);
    const redis = opts.redisAvailable && {
      redis: opts.redisAvailable() ? ('up' as const) : ('down' as const),
    };
    reply.header('cache-control', 'no-store');
    if (result.ready) return reply.send({ status: 'ok', ...redis });
    app.log.warn({ event: 'readyz.failed', check: result.check, detail: result.detail }, 'not ready');
    return reply
      .code(503)
      .header('retry-after', String(DATABASE_BUSY_RETRY_AFTER_SECONDS))
      .send({ status: 'error', failed: result.check, detail: result.detail, ...redis });
  });
}
