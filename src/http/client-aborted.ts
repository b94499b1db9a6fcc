import type { FastifyRequest } from 'fastify';

/** How Node, its streams and the multipart parser say that the other side hung up mid-request. */
const HANG_UP_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'FST_MP_PREMATURE_CLOSE',
]);

/**
 * True when a request failed because its client went away (a browser closed the tab or lost the network
 * during an upload), not because of the store: the error says the connection ended, and the request's own
 * socket is in fact gone. An ECONNRESET from a service the store calls (S3, Stripe) while the browser still
 * waits stays a failure.
 */
export function isClientAbort(error: unknown, req: FastifyRequest): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const saysHangUp =
    (typeof code === 'string' && HANG_UP_CODES.has(code)) ||
    message === 'aborted' ||
    message === 'Premature close';
  return saysHangUp && (req.raw.destroyed || req.raw.socket?.destroyed === true);
}
