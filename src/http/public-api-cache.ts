import type { FastifyInstance, FastifyRequest } from 'fastify';
import { holdsKeptJson, toJsonBuffer } from '../core/prebuilt-json.js';
import { PUBLIC_QUERIES } from '../core/public-queries.js';
import { isKeptOutOfResponseCaches } from '../core/uncacheable-requests.js';
import { type RevisionReader, settledRevision } from '../db/store-revision.js';
import type { ServerQuery } from '../shared/ssr-contract.js';
import { cachedPayload, type ResponseCache } from './response-cache.js';

/** tRPC's own limit (trpc/http.ts): a longer batch is left to tRPC, which refuses it. */
const MAX_BATCH = 10;

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
 * A public GET (one query or a batch) answered by calling its procedures in-process, in the envelope tRPC's
 * HTTP handler gives a success ({"result":{"data":…}}, in an array for a batch). Null when tRPC must answer:
 * an input that is not JSON, a batch flag or length tRPC may read differently, or any procedure failing
 * (its error, status and headers are tRPC's to write, so the request then runs through tRPC as before).
 */
export async function answerInProcess(
  url: string,
  prefix: string,
  query: ServerQuery,
): Promise<Buffer | null> {
  const parsed = new URL(url, 'http://localhost');
  const procedures = parsed.pathname.slice(prefix.length).split(',');
  const flag = parsed.searchParams.get('batch');
  if (flag !== null && flag !== '1') return null;
  const batch = flag === '1';
  if ((!batch && procedures.length !== 1) || procedures.length > MAX_BATCH) return null;
  const raw = parsed.searchParams.get('input');
  let inputs: unknown;
  try {
    inputs = raw === null ? undefined : JSON.parse(raw);
  } catch {
    return null;
  }
  const inputOf = (i: number): unknown =>
    !batch
      ? inputs
      : typeof inputs === 'object' && inputs !== null
        ? Reflect.get(inputs, String(i))
        : undefined;
  try {
    // One after another, as the public-query gate runs them anyway: a failure leaves no call behind it still
    // waiting for its turn (it would spend the budget the calls given back to tRPC are charged again from).
    const data: unknown[] = [];
    for (const [i, name] of procedures.entries()) data.push(await query(name, inputOf(i)));
    // As JSON.stringify writes the envelope (an undefined answer has no data), with the cards' kept JSON.
    const envelope = (d: unknown) => holdsKeptJson({ result: holdsKeptJson({ data: d }) });
    return toJsonBuffer(batch ? holdsKeptJson(data.map(envelope)) : envelope(data[0]));
  } catch {
    return null;
  }
}

/**
 * Answers repeated public catalogue queries from memory before tRPC is reached (tRPC costs about ten bare
 * requests per call), keyed by the exact URL and valid for one storefront revision. A miss calls the
 * procedures in-process (`inProcess`, as the server's page render does): tRPC's HTTP handler (a WHATWG Request
 * and Response per call) cost as much as the whole answer of a cheap procedure. A failing procedure goes
 * through tRPC, which writes its error. Either way the answer is kept once its URL is asked again or
 * waited for (decision 0029). Register it in the same scope as the tRPC plugin.
 */
export function registerPublicApiCache(
  scope: FastifyInstance,
  opts: {
    prefix: string;
    cache: ResponseCache;
    revision: RevisionReader;
    inProcess?: {
      /**
       * The request's public queries, telling `charged` what the rate-limit gate charged for each, and
       * reading the storefront revision the cache read (`revision`) rather than again.
       */
      query: (req: FastifyRequest, charged: (ms: number) => void, revision: string) => ServerQuery;
      /** Gives the gate back what the calls of an answer left to tRPC were charged. */
      refund: (req: FastifyRequest, ms: number) => void;
    };
  },
): void {
  const pending = new WeakMap<FastifyRequest, string>();
  const releases = new WeakMap<FastifyRequest, () => void>();
  const prefix = `${opts.prefix}/`;

  const land = (req: FastifyRequest) => {
    releases.get(req)?.();
    releases.delete(req);
  };

  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' || !isCacheable(req.url, prefix)) return;
    // Unreadable (the database is closing): the procedure answers, or fails, as it would.
    const revision = await settledRevision(opts.revision);
    if (revision === null) return;
    const found = await opts.cache.lookup(req.url, revision);
    if (found.hit) return reply.send(cachedPayload(req, reply, found.hit));
    // A miss: this request runs the procedure, and identical ones wait for its answer.
    releases.set(req, found.release);
    let charged = 0;
    const body = opts.inProcess
      ? await answerInProcess(
          req.url,
          prefix,
          opts.inProcess.query(
            req,
            (ms) => {
              charged += ms;
            },
            revision,
          ),
        )
      : null;
    if (body === null) {
      // tRPC runs the calls again: they are charged then, as if this attempt had not been made.
      if (charged > 0) opts.inProcess?.refund(req, charged);
      pending.set(req, revision);
      return;
    }
    // Answered right, but not for that revision (facets from an older snapshot while a newer one loads).
    if (isKeptOutOfResponseCaches(req)) {
      land(req);
      return reply.type('application/json; charset=utf-8').send(body);
    }
    // Kept before the waiting requests are let go: they find it, and that they waited is what makes a
    // first answer worth keeping (ResponseCacheLimits.admitWhenAskedTwice).
    const entry = opts.cache.set(req.url, revision, { status: 200, contentType: 'application/json', body });
    land(req);
    return reply.send(cachedPayload(req, reply, entry));
  });

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
