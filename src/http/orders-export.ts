import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import type { SessionPolicy } from '../modules/auth/session.js';
import { orderCsvRows } from '../modules/orders/orders-csv.js';
import { orderExportInput } from '../shared/order-admin-input.js';
import { requireAdmin } from './require-admin.js';

const DAY_MS = 86_400_000;

/**
 * GET /api/admin/orders/export.csv?from=YYYY-MM-DD&to=YYYY-MM-DD: the orders paid on those days (UTC, both
 * included) with one row per line, for the accountant (admin only).
 */
export function registerOrdersExport(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; policy: SessionPolicy },
): void {
  app.get(
    '/api/admin/orders/export.csv',
    { preHandler: requireAdmin({ db: deps.db, clock: deps.clock, policy: deps.policy }) },
    async (req, reply) => {
      const query = (req.query ?? {}) as Record<string, unknown>;
      const parsed = orderExportInput.safeParse({ from: query.from, to: query.to });
      const from = parsed.success ? Date.parse(`${parsed.data.from}T00:00:00.000Z`) : Number.NaN;
      const to = parsed.success ? Date.parse(`${parsed.data.to}T00:00:00.000Z`) + DAY_MS : Number.NaN;
      if (!parsed.success || Number.isNaN(from) || Number.isNaN(to)) {
        const message = parsed.success
          ? 'Not a real date'
          : (parsed.error.issues[0]?.message ?? 'Invalid range');
        return reply.code(400).send({ error: 'Bad Request', message });
      }
      req.log.info(
        { event: 'orders.exported', from: parsed.data.from, to: parsed.data.to, account: req.admin?.email },
        'orders exported as CSV',
      );
      const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="orders-${parsed.data.from}-to-${parsed.data.to}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(Readable.from(orderCsvRows(deps.db, range)));
    },
  );
}
