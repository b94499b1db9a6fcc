import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export function registerHealth(app: FastifyInstance, opts: { db: Db }): void {
  app.get('/healthz', async (_req, reply) => {
    try {
      await sql`SELECT 1`.execute(opts.db);
      return reply.header('cache-control', 'no-store').send({ status: 'ok', database: 'ok' });
    } catch (error) {
      app.log.error({ err: error }, 'health check: database unreachable');
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .send({ status: 'error', database: 'unreachable' });
    }
  });
}
