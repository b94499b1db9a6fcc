import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import type { SessionPolicy } from '../modules/auth/session.js';
import type { LogService } from '../modules/logs/log-service.js';
import { iterateLogs } from '../modules/logs/logs.repository.js';
import { logFilterInput } from '../shared/logs.js';
import { requireAdmin } from './require-admin.js';

/** GET /api/admin/logs/export?level=&source=&q=: the filtered log as JSON lines, newest first (admin only). */
export function registerLogsExport(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; policy: SessionPolicy; logs: LogService },
): void {
  app.get(
    '/api/admin/logs/export',
    { preHandler: requireAdmin({ db: deps.db, clock: deps.clock, policy: deps.policy }, 'owner') },
    async (req, reply) => {
      const query = (req.query ?? {}) as Record<string, unknown>;
      const parsed = logFilterInput.safeParse({
        level: query.level || undefined,
        source: query.source || undefined,
        q: query.q || undefined,
      });
      if (!parsed.success) return reply.code(400).send({ error: 'Bad Request', message: 'Invalid filter' });
      await deps.logs.flush();
      const filter = parsed.data;
      // Streamed a page at a time, so a large log never sits in memory whole.
      const body = Readable.from(
        (async function* () {
          for await (const item of iterateLogs(deps.db, filter)) {
            yield `${JSON.stringify({ ...item, details: JSON.parse(item.details) as unknown })}\n`;
          }
        })(),
      );
      const stamp = deps.clock.now().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="store-log-${stamp}.jsonl"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}
