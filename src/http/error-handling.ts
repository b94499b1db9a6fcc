import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  DATABASE_BUSY_MESSAGE,
  DATABASE_BUSY_RETRY_AFTER_SECONDS,
  GENERIC_ERROR_MESSAGE,
  isDatabaseBusy,
  isStorageFull,
  RATE_LIMITED_RETRY_AFTER_SECONDS,
  STORAGE_FULL_MESSAGE,
} from '../core/failures.js';
import { isClientAbort } from './client-aborted.js';

/** The response header that carries the request id (the same id as the log lines and error bodies). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What helmet would add, for the few answers Fastify gives before any hook (see frameworkErrorHandler). */
function bareSecurityHeaders(secure: boolean): Record<string, string> {
  return {
    'content-security-policy':
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(secure ? { 'strict-transport-security': 'max-age=15552000' } : {}),
  };
}

/**
 * Fastify's `frameworkErrors` option. A URL Fastify cannot route (undecodable, or a parameter past
 * maxParamLength) is answered before any hook runs, so helmet never sees it: it gets the same protective
 * headers here, and no echo of the URL.
 */
export function frameworkErrorHandler(secureTransport: boolean) {
  return (error: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    reply
      .headers(bareSecurityHeaders(secureTransport))
      .header(REQUEST_ID_HEADER, req.id)
      .code(tooLong ? 414 : 400)
      .send({
        error: tooLong ? 'URI Too Long' : 'Bad Request',
        message: tooLong ? 'The address is too long.' : 'The address is not a valid URL.',
        requestId: req.id,
      });
  };
}

/**
 * The one error answer of plain routes, the counterpart of the tRPC error formatter (trpc/init.ts): a busy
 * database is a 503 to retry, a full disk a 507 that says so, and any other failure a 500 whose text is
 * hidden in production. Every answer, errors or not, carries its request id, which is also on the log line
 * of the failure, so an operator can find the log lines of any answer.
 */
export function registerErrorHandling(app: FastifyInstance, opts: { production: boolean }): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (isClientAbort(error, req)) {
      // Nobody reads the answer; the store did nothing wrong, so no error and no stack in the log. First:
      // its ECONNRESET would otherwise read as a lost database connection (isDatabaseBusy).
      req.log.info(
        { event: 'request.aborted', reason: (error as { code?: string }).code ?? error.message },
        'the client closed the connection before its request finished',
      );
      return reply
        .code(400)
        .send({ error: 'Bad Request', message: 'The request was interrupted.', requestId: req.id });
    }
    if (isDatabaseBusy(error)) {
      req.log.warn({ err: error }, 'database busy');
      return reply.code(503).header('retry-after', String(DATABASE_BUSY_RETRY_AFTER_SECONDS)).send({
        error: 'Service Unavailable',
        message: DATABASE_BUSY_MESSAGE,
        requestId: req.id,
      });
    }
    if (isStorageFull(error)) {
      req.log.error({ err: error }, 'disk full');
      return reply
        .code(507)
        .send({ error: 'Insufficient Storage', message: STORAGE_FULL_MESSAGE, requestId: req.id });
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err: error }, 'request failed');
      return reply.code(status).send({
        error: 'Internal Server Error',
        message: opts.production ? GENERIC_ERROR_MESSAGE : error.message,
        requestId: req.id,
      });
    }
    return reply.code(status).send({ error: error.name, message: error.message, requestId: req.id });
  });

  // A callback hook: it runs on every request, cached answers included, and needs no promise of its own.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });

  // Every 503 and 429 says when to come back. The routes that know give their own time; this covers any
  // other (a plugin's, a route added later) with the usual waits.
  app.addHook('onSend', (_req, reply, payload, done) => {
    const status = reply.statusCode;
    if ((status === 503 || status === 429) && !reply.hasHeader('retry-after')) {
      const seconds = status === 503 ? DATABASE_BUSY_RETRY_AFTER_SECONDS : RATE_LIMITED_RETRY_AFTER_SECONDS;
      reply.header('retry-after', String(seconds));
    }
    done(null, payload);
  });

  // While the server closes, Fastify answers new requests on open connections with a 503 of its own, before
  // any hook (return503OnClosing): the header is set on the response before Fastify sees the request.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.server.prependListener('request', (_req, res) => {
    if (closing) res.setHeader('retry-after', String(CLOSING_RETRY_AFTER_SECONDS));
  });
}

/** A process that is shutting down is restarted or replaced within seconds (a deploy, a supervisor). */
const CLOSING_RETRY_AFTER_SECONDS = 5;
