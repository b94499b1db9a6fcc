import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { securityFacts } from './security-facts.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The path the router matched, which is the path whose handler runs: the route's pattern (for example
 * '/api/trpc/:path'), or for a request no route took, its pathname decoded as the router decodes it. The raw
 * req.url is never used: '/api/%74rpc/x' reaches the tRPC route while its raw text does not start with
 * '/api/trpc/'. Null for a pathname that does not decode (the router refuses those first; this is the
 * guard's own answer should that ever change).
 */
export function routedPath(req: FastifyRequest): string | null {
  if (req.routeOptions.url !== undefined) return req.routeOptions.url;
  const raw = req.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * The origins whose requests are this store's own. PUBLIC_URL's always. In production only it, plus the
 * address the browser was sent to when that is this machine's loopback name (`npm start` runs in
 * production and prints 127.0.0.1 while people type localhost): the Host header is the client's word,
 * and a page on a name that resolves to this server (DNS rebinding) would otherwise pass as our own, but
 * a browser only sends a loopback Host to a page it loaded from that loopback address. Outside production
 * any address the request was sent to counts (the Vite dev server's proxy forwards its own Host).
 */
function isOwnOrigin(
  req: FastifyRequest,
  origin: string,
  publicOrigin: string,
  production: boolean,
): boolean {
  if (origin === publicOrigin) return true;
  if (origin !== `${req.protocol}://${req.host}`) return false;
  return !production || LOOPBACK_HOSTS.has(req.hostname);
}

/**
 * Refuses state-changing API requests that a browser sent from another site. The session cookie is
 * SameSite=Lax already; this is the second lock. A request is refused when the browser says it is
 * cross-site (Sec-Fetch-Site) or its Origin is not the store's own (see isOwnOrigin). tRPC mutations must
 * be JSON, which no plain HTML form can send. The Stripe webhook route is exempt: Stripe is another site by
 * design and proves itself with a signature instead. Every refusal is a security event in the application
 * log (source "security"; the log stream limits how many reach the table, see security-gate.ts).
 */
export function registerSameOriginGuard(
  app: FastifyInstance,
  opts: { publicUrl: string; production: boolean; exemptRoutes?: string[] },
): void {
  const publicOrigin = new URL(opts.publicUrl).origin;
  const exempt = new Set(opts.exemptRoutes ?? []);

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (SAFE_METHODS.has(req.method)) return;
    const target = routedPath(req);
    if (target === null) {
      return reply.code(400).send({ error: 'Bad Request', message: 'The address is not a valid URL.' });
    }
    if (!target.startsWith('/api/') || exempt.has(target)) return;

    const fetchSite = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const crossSite = fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none';
    const foreignOrigin = origin !== undefined && !isOwnOrigin(req, origin, publicOrigin, opts.production);
    if (crossSite || foreignOrigin) {
      req.log.warn(
        {
          event: 'security.cross-site',
          ...securityFacts(req),
          fetchSite,
          reason: crossSite ? `Sec-Fetch-Site: ${fetchSite}` : `Origin is not ${publicOrigin}`,
        },
        'refused a cross-site request',
      );
      return reply.code(403).send({ error: 'Forbidden', message: 'Cross-site requests are not allowed' });
    }
    if (target.startsWith('/api/trpc/')) {
      const type = String(req.headers['content-type'] ?? '');
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        req.log.warn(
          { event: 'security.not-json', ...securityFacts(req), contentType: type.slice(0, 100) },
          'refused a tRPC call that was not JSON',
        );
        return reply
          .code(415)
          .send({ error: 'Unsupported Media Type', message: 'Send JSON (application/json)' });
      }
    }
  });
}
