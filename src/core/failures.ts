/**
 * The failures that are not the request's fault, and what a person is told about each. The tRPC error
 * formatter and the HTTP error handler both classify with these, so a busy database or a full disk reads the
 * same whichever route met it.
 */

export const GENERIC_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';
export const DATABASE_BUSY_MESSAGE = 'The store is busy right now. Please try again in a moment.';
export const STORAGE_FULL_MESSAGE =
  "The store's disk is full, so this could not be saved. Nothing was changed: free some space and try again.";
export const TOO_MANY_REQUESTS_MESSAGE =
  'Too many requests from your address. Please wait a moment and try again.';

/** How long a shopper refused because the database is busy or away is asked to wait (Retry-After). */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 2;

/** Retry-After of a 429 whose limit did not say when it lets the asker in again. */
export const RATE_LIMITED_RETRY_AFTER_SECONDS = 60;

/**
 * The cause of a refusal that knows when to come back (a limit's window ends): every 503 and 429 carries
 * Retry-After, and the API's responseMeta (trpc/retry-after.ts) reads the time from here.
 */
export class RetryLater extends Error {
  override name = 'RetryLater';
  constructor(readonly retryAfterSeconds: number) {
    super(`retry after ${retryAfterSeconds} s`);
  }
}

/**
 * SQLITE_BUSY (and its extended codes) after the lock wait: another connection (the admin CLI, a backup, a
 * second process) held the write lock. On PostgreSQL: a lock not granted within the lock wait, a
 * serialization failure or deadlock (the transaction was undone), no connection to be had, or the
 * connection lost (isDatabaseConnectionLost). Nothing is wrong with the request, so it is a 503 to retry,
 * not a 500.
 */
export function isDatabaseBusy(error: unknown): boolean {
  return (
    hasErrorCode(error, (code) => code.startsWith('SQLITE_BUSY') || POSTGRES_BUSY.has(code)) ||
    isDatabaseConnectionLost(error)
  );
}

/** lock_not_available, serialization_failure, deadlock_detected, too_many_connections, cannot_connect_now. */
const POSTGRES_BUSY = new Set(['55P03', '40001', '40P01', '53300', '57P03']);

/**
 * The server ended the connection or could not be reached: a restart, a failover, a managed database's
 * maintenance, pg_terminate_backend. The statement (and its transaction) did not happen, or its outcome was
 * undone; the pool discards the connection, and the next request gets a new one once the server answers.
 */
export function isDatabaseConnectionLost(error: unknown): boolean {
  return (
    hasErrorCode(error, (code) => CONNECTION_LOST_CODES.has(code)) ||
    hasError(error, (e) => CONNECTION_LOST_MESSAGES.has(e.message))
  );
}

/**
 * admin_shutdown, crash_shutdown, cannot_connect_now; connection_exception, connection_does_not_exist,
 * connection_failure, sqlclient_unable_to_establish_sqlconnection; and the socket's own failures.
 */
const CONNECTION_LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
]);

/** What the pg driver throws, without a code, for a connection that ended or never came (pg 8, pg-pool 3). */
const CONNECTION_LOST_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Client has encountered a connection error and is not queryable',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
]);

/**
 * The disk (or the process's file size limit) is full: a file write failed (ENOSPC, EDQUOT, EFBIG) or
 * the database could not grow its file (SQLITE_FULL, PostgreSQL's disk_full). The write was undone; the operator has to act, so it is a
 * 507 that says what happened rather than a generic 500.
 */
export function isStorageFull(error: unknown): boolean {
  return hasErrorCode(
    error,
    // 53100: PostgreSQL's disk_full.
    (code) => ['ENOSPC', 'EDQUOT', 'EFBIG', '53100'].includes(code) || code.startsWith('SQLITE_FULL'),
  );
}

function hasErrorCode(error: unknown, test: (code: string) => boolean): boolean {
  return hasError(error, (e) => {
    const code = (e as Error & { code?: unknown }).code;
    return typeof code === 'string' && test(code);
  });
}

function hasError(error: unknown, test: (error: Error) => boolean): boolean {
  let current: unknown = error;
  // Follows a few causes: a module may wrap the driver's error in its own.
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (test(current)) return true;
    current = current.cause;
  }
  return false;
}
