import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { holdsConfirmToken } from '../modules/orders/cod-confirmation.js';
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
  const page =
    (confirm: boolean) =>
    async (
      req: FastifyRequest<{ Params: { id: string }; Querystring: { token?: unknown } }>,
      reply: FastifyReply,
    ) => {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const { id } = req.params;
      const order =
        token && id.length <= 100
          ? await deps.db
              .selectFrom('orders')
              .select(['access_token', 'paid_at', 'number', 'payment_method', 'confirm_token_hash'])
              .where('id', '=', id)
              .executeTakeFirst()
          : undefined;
      // An unpaid card checkout has no page; an order paid at the door or by transfer has one from its
      // placing (decision 0038). The confirmation page (the email's link) opens with either token.
      const found =
        !!order &&
        (order.paid_at !== null || order.payment_method !== 'card') &&
        (confirm
          ? order.payment_method === 'cash_on_delivery' && holdsConfirmToken(order, token)
          : tokenMatches(order.access_token, token));
      const { storeName } = await readSiteSettings(deps.db);
      const query = deps.query?.(req);
      const html = await storefrontHtml({
        template: shell.html,
        pathname: `/order/${encodeURIComponent(id)}${confirm ? '/confirm' : ''}`,
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
    };
  app.get('/order/:id', page(false));
  // The cash-on-delivery confirmation link: a page with a button (a GET never confirms: mail scanners open
  // links), as private as the order page.
  app.get('/order/:id/confirm', page(true));
}

function isThisOrder(input: unknown, id: string, token: string): boolean {
  if (typeof input !== 'object' || input === null) return false;
  const asked = input as { id?: unknown; token?: unknown };
  return asked.id === id && asked.token === token;
}
