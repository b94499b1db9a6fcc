import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import { tokenMatches } from '../modules/orders/order-access.js';

/**
 * GET /order/:id?token=...: the shopper's order page. The page's data comes from orderPage.view with the
 * same token; this route only decides the status (404 for a wrong or missing token, so the answer alone
 * tells nothing) and keeps the page private: never cached, never indexed, and its address (which holds the
 * token) never sent on as a referrer.
 */
export function registerOrderPage(app: FastifyInstance, deps: { db: Db; shellHtml: string | null }): void {
  if (!deps.shellHtml) return;
  const html = deps.shellHtml;
  app.get<{ Params: { id: string }; Querystring: { token?: unknown } }>('/order/:id', async (req, reply) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const order =
      token && req.params.id.length <= 100
        ? await deps.db
            .selectFrom('orders')
            .select(['access_token', 'paid_at'])
            .where('id', '=', req.params.id)
            .executeTakeFirst()
        : undefined;
    const found = !!order && order.paid_at !== null && tokenMatches(order.access_token, token);
    return reply
      .code(found ? 200 : 404)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex, nofollow')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
