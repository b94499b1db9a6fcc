import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import type { FixedWindowLimiter } from '../modules/limits/fixed-window-limiter.js';
import { insertVitals } from '../modules/telemetry/vitals.repository.js';
import { vitalsReportInput } from '../shared/telemetry.js';
import { VITALS_BODY_LIMIT } from '../shared/telemetry-limits.js';

/**
 * POST /api/vitals: the storefront's real-user performance beacon. navigator.sendBeacon sends text/plain,
 * fetch sends JSON; both are parsed as JSON here, in this route's own scope. Public, so limited per IP and
 * by size; only the route pattern of the reported path is stored, never the URL.
 */
export async function registerVitals(
  app: FastifyInstance,
  opts: { db: Db; clock: Clock; limiter: FixedWindowLimiter },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ['application/json', 'text/plain'],
      { parseAs: 'string', bodyLimit: VITALS_BODY_LIMIT },
      (_req, body, done) => {
        try {
          done(null, JSON.parse(String(body)) as unknown);
        } catch {
          done(null, undefined);
        }
      },
    );

    scope.post('/api/vitals', async (req, reply) => {
      const admission = await opts.limiter.admit(req.ip);
      if (!admission.taken) {
        return reply
          .code(429)
          .header('retry-after', String(admission.retryAfterSeconds))
          .send({ error: 'Too Many Requests', message: 'Too many reports' });
      }
      const parsed = vitalsReportInput.safeParse(req.body);
      if (!parsed.success) {
        return reply.code(400).send({ error: 'Bad Request', message: 'Invalid vitals report' });
      }
      await insertVitals(opts.db, parsed.data, opts.clock.now());
      return reply.code(204).header('cache-control', 'no-store').send();
    });
  });
}
