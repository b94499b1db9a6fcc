import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RevisionReader } from '../db/store-revision.js';
import { PUBLIC_QUERIES } from './public-queries.js';
import { cachedPayload, type ResponseCache } from './response-cache.js';

function isCacheable(url: string, prefix: string): boolean {
  const end = url.indexOf('?');
  const procedures = url.slice(prefix.length, end === -1 ? undefined : end);
  if (procedures.length === 0) return false;
  for (const name of procedures.split(',')) if (!PUBLIC_QUERIES.has(name)) return false;
  return true;
}

function isWebResponse(payload: unknown): payload is Response {
  return typeof payload === 'object' && payload !== null && payload instanceof Response;
}

/**
 * Answers repeated public catalogue queries from memory before tRPC is reached (tRPC costs about ten bare
 * requests per call), keyed by the exact URL and valid for one storefront revision. A miss runs the
 * procedure as usual and keeps its answer. Register it in the same scope as the tRPC plugin.
 */
export function registerPublicApiCache(
  scope: FastifyInstance,
  opts: { prefix: string; cache: ResponseCache; revision: RevisionReader },
): void {
  const pending = new WeakMap<FastifyRequest, string>();
  // Identical requests that arrive while the first is still being answered wait for it instead of each
  // running the same query (a cold cache under a burst: 200 shoppers landing at once).
  const inflight = new Map<string, { done: Promise<void>; finish: () => void }>();
  const flights = new WeakMap<FastifyRequest, string>();
  const prefix = `${opts.prefix}/`;

  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' || !isCacheable(req.url, prefix)) return;
    let revision: string;
    try {
      revision = opts.revision();
    } catch {
      // The database is closing or unreadable: let the procedure answer (or fail) as it would.
      return;
    }
    const flightKey = `${revision}\u0000${req.url}`;
    const first = inflight.get(flightKey);
    if (first) await first.done;
    const hit = opts.cache.get(req.url, revision);
    if (hit) return reply.send(cachedPayload(req, reply, hit));
    // A miss (or the first one failed, so nothing was kept): this request answers, and the next ones wait.
    pending.set(req, revision);
    if (!first || !inflight.has(flightKey)) {
      let finish = () => {};
      const done = new Promise<void>((resolve) => {
        finish = resolve;
      });
      inflight.set(flightKey, { done, finish });
      flights.set(req, flightKey);
    }
  });

  const land = (req: FastifyRequest) => {
    const key = flights.get(req);
    if (key === undefined) return;
    flights.delete(req);
    inflight.get(key)?.finish();
    inflight.delete(key);
  };

  scope.addHook('onSend', async (req, reply, payload) => {
    // The revision read before the procedure ran: a change made meanwhile makes the next read miss.
    const revision = pending.get(req);
    if (revision === undefined || !isWebResponse(payload) || payload.status !== 200) return payload;
    const body = await payload.text();
    const entry = opts.cache.set(req.url, revision, {
      status: 200,
      contentType: payload.headers.get('content-type') ?? 'application/json',
      body,
    });
    land(req);
    return cachedPayload(req, reply, entry);
  });
  // Whatever happened (an error, a closed connection), the waiting requests go on.
  scope.addHook('onResponse', async (req) => land(req));
  scope.addHook('onRequestAbort', async (req) => land(req));
}
