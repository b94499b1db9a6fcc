import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { tokenMatches } from '../modules/orders/order-access.js';
import { readSiteSettings } from '../modules/settings/settings.repository.js';
import type { ServerQuery } from '../shared/ssr-contract.js';
import type { PageShell } from './page-shell.js';
import { compressedBody } from './response-cache.js';
import { loadRenderer, storefrontHtml } from './storefront-page.js';

/** The one query the order page asks beside the public ones; answered only for the page's own address. */
export const ORDER_PAGE_QUERIES: ReadonlySet<string> = new Set(['orderPage.view']);

/**
 * GET /order/:id?token=...: the shopper's order page. This route decides the status (404 for a wrong or
 * missing token, so the answer alone tells nothing) and keeps the page private: never cached, never
 * indexed, and its address (which holds the token) never sent on as a referrer. The page is rendered on the
 * server, with orderPage.view answered for the id and token of its address: it reads whole without
 * JavaScript and nothing moves as data arrives. Sent compressed when the browser accepts it.
 */
export async function registerOrderPage(
  app: FastifyInstance,
  deps: {
    db: Db;
    shell: PageShell | null;
    /** Where the server bundle of the client lives (dist/ssr); without it the page is the plain shell. */
    ssrDir?: string | null;
    /** Public queries plus ORDER_PAGE_QUERIES, for this request (public-caller.ts). */
    query?: (req: FastifyRequest) => ServerQuery;
  },
): Promise<void> {
  const { shell } = deps;
  if (!shell) return;
  const render = await loadRenderer(deps.ssrDir ?? null);
  app.get<{ Params: { id: string }; Querystring: { token?: unknown } }>('/order/:id', async (req, reply) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const { id } = req.params;
    const order =
      token && id.length <= 100
        ? await deps.db
            .selectFrom('orders')
            .select(['access_token', 'paid_at', 'number', 'payment_method'])
            .where('id', '=', id)
            .executeTakeFirst()
        : undefined;
    // As orderPage.view answers: a card order once paid; one paid at the door or by transfer from its placing,
    // since its page is where the shopper learns what comes next (decision 0038).
    const found =
      !!order &&
      (order.paid_at !== null || order.payment_method !== 'card') &&
      tokenMatches(order.access_token, token);
    const { storeName } = await readSiteSettings(deps.db);
    const query = deps.query?.(req);
    const html = await storefrontHtml({
      template: shell.html,
      pathname: `/order/${encodeURIComponent(id)}`,
      // The token is all the page reads of its query string.
      search: token ? new URLSearchParams({ token }).toString() : '',
      head: {
        title: `${found ? `Order #${order.number}` : 'Order not found'} · ${storeName}`,
        description: '',
        tags: `<meta name="robots" content="noindex">`,
      },
      render,
      rendered: true,
      boot: shell.boot,
      // Only the order of this address, with its own token; anything else as any shopper would be answered.
      query: async (path, input) => {
        if (!query) return undefined;
        if (ORDER_PAGE_QUERIES.has(path) && !isThisOrder(input, id, token)) return undefined;
        return query(path, input);
      },
      log: req.log,
    });
    reply
      .code(found ? 200 : 404)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex, nofollow')
      .type('text/html; charset=utf-8');
    return reply.send(compressedBody(req, reply, html));
  });
}

function isThisOrder(input: unknown, id: string, token: string): boolean {
  if (typeof input !== 'object' || input === null) return false;
  const asked = input as { id?: unknown; token?: unknown };
  return asked.id === id && asked.token === token;
}
