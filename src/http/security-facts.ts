import type { FastifyRequest } from 'fastify';

/** Long enough to show a batched tRPC path's first procedures; an attacker's 5000-character path is cut. */
const MAX_SHOWN = 200;

export type SecurityFacts = {
  method: string;
  /** The path as sent (encoding tricks stay visible), without the query string: it may carry inputs. */
  path: string;
  /** The route the router matched, or null when none did. */
  route: string | null;
  ip: string;
  origin: string | null;
};

/**
 * What a security event in the application log says about the request: enough to find the client and what
 * it tried, nothing it could have sent as a secret (no cookie, no Authorization, no query, no body). The
 * request id comes with the logger (req.log).
 */
export function securityFacts(req: FastifyRequest): SecurityFacts {
  const origin = req.headers.origin;
  return {
    method: req.method,
    path: (req.url.split('?')[0] ?? '').slice(0, MAX_SHOWN),
    route: req.routeOptions.url ?? null,
    ip: req.ip,
    origin: origin === undefined ? null : origin.slice(0, MAX_SHOWN),
  };
}
