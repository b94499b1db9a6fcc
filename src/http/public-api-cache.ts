import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PUBLIC_QUERIES } from '../core/public-queries.js';
import { type RevisionReader, settledRevision } from '../db/store-revision.js';
import { cachedPayload, isKeptOutOfResponseCaches, type ResponseCache } from './response-cache.js';

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
  const releases = new WeakMap<FastifyRequest, () => void>();
  const prefix = `${opts.prefix}/`;

  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' || !isCacheable(req.url, prefix)) return;
    // Unreadable (the database is closing): the procedure answers, or fails, as it would.
    const revision = await settledRevision(opts.revision);
    if (revision === null) return;
    const found = await opts.cache.lookup(req.url, revision);
    if (found.hit) return reply.send(cachedPayload(req, reply, found.hit));
    // A miss: this request runs the procedure, and identical ones wait for its answer.
    pending.set(req, revision);
    releases.set(req, found.release);
  });

  const land = (req: FastifyRequest) => {
    releases.get(req)?.();
    releases.delete(req);
  };

  scope.addHook('onSend', async (req, reply, payload) => {
    // The revision read before the procedure ran: a change made meanwhile makes the next read miss.
    const revision = pending.get(req);
    if (revision === undefined || !isWebResponse(payload) || payload.status !== 200) return payload;
    // Answered right, but not for that revision (facets from an older snapshot while a newer one loads).
    if (isKeptOutOfResponseCaches(req)) return payload;
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
