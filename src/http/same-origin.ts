import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing API requests that a browser sent from another site. The session cookie is
 * SameSite=Lax already; this is the second lock. A request is refused when the browser says it is
 * cross-site (Sec-Fetch-Site) or its Origin is neither PUBLIC_URL's nor the address it was sent to. tRPC
 * mutations must be JSON, which no plain HTML form can send. The Stripe webhook is exempt: Stripe is
 * another site by design and proves itself with a signature instead.
 */
export function registerSameOriginGuard(
  app: FastifyInstance,
  opts: { publicUrl: string; exempt?: string[] },
): void {
  const publicOrigin = new URL(opts.publicUrl).origin;
  const exempt = opts.exempt ?? [];

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (SAFE_METHODS.has(req.method)) return;
    const pathname = req.url.split('?')[0] ?? '';
    if (!pathname.startsWith('/api/') || exempt.some((p) => pathname.startsWith(p))) return;

    const fetchSite = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const ownOrigin = `${req.protocol}://${req.host}`;
    const crossSite = fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none';
    const foreignOrigin = origin !== undefined && origin !== publicOrigin && origin !== ownOrigin;
    if (crossSite || foreignOrigin) {
      req.log.warn({ origin, fetchSite, path: pathname }, 'refused a cross-site request');
      return reply.code(403).send({ error: 'Forbidden', message: 'Cross-site requests are not allowed' });
    }
    if (pathname.startsWith('/api/trpc/')) {
      const type = String(req.headers['content-type'] ?? '');
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        return reply
          .code(415)
          .send({ error: 'Unsupported Media Type', message: 'Send JSON (application/json)' });
      }
    }
  });
}
