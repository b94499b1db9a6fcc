import {
  DATABASE_BUSY_RETRY_AFTER_SECONDS,
  isDatabaseBusy,
  RATE_LIMITED_RETRY_AFTER_SECONDS,
} from '../core/failures.js';

type AnswerError = { code?: string; cause?: unknown };

/**
 * tRPC's responseMeta: every 503 and 429 says when to come back, in Retry-After. A refusal that knows when
 * (a throttled sign-in, an address over a limit) gives its own time as the error's cause, since tRPC errors
 * carry no headers of their own; a busy or unreachable database, a full public-query gate or a limit that
 * cannot be checked gets a short wait, any other 429 a minute. A batch takes the longest of its waits.
 */
export function retryAfterMeta(opts: { errors: readonly AnswerError[] }): {
  headers?: Record<string, string>;
} {
  let seconds = 0;
  for (const e of opts.errors) seconds = Math.max(seconds, retryAfterSeconds(e));
  return seconds > 0 ? { headers: { 'retry-after': String(seconds) } } : {};
}

function retryAfterSeconds(e: AnswerError): number {
  const value = (e.cause as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.ceil(value);
  // The same test as the error formatter's (trpc/init.ts), which makes a busy database's error a 503.
  if (e.code === 'SERVICE_UNAVAILABLE' || isDatabaseBusy(e.cause)) return DATABASE_BUSY_RETRY_AFTER_SECONDS;
  if (e.code === 'TOO_MANY_REQUESTS') return RATE_LIMITED_RETRY_AFTER_SECONDS;
  return 0;
}
