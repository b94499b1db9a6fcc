import type { AttemptOutcome } from './outbox.repository.js';

/**
 * When a failed email is tried again: a minute after the first failure, doubling, at most an hour apart, ten
 * attempts in all (about four and a half hours of a mail server being away), then it is failed with the
 * reason and waits for the admin's resend.
 */
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 60_000;
const LONGEST_RETRY_MS = 3_600_000;

export function retryDelayMs(attempt: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), LONGEST_RETRY_MS);
}

/** What a send error is, as far as the retries care: the mail server's own reply or a failure to reach it. */
export type SendFailure = {
  /** The server refused this message or recipient for good (an SMTP 5xx reply to the envelope or the data). */
  permanent: boolean;
  /** For the admin and the log: the server's reply or the connection error, without credentials. */
  reason: string;
};

/** The outcome of attempt number `attempt` that failed with `failure`, at `now`. */
export function failedAttemptOutcome(failure: SendFailure, attempt: number, now: Date): AttemptOutcome {
  if (failure.permanent) return { status: 'failed', lastError: `rejected: ${failure.reason}` };
  if (attempt >= MAX_ATTEMPTS)
    return { status: 'failed', lastError: `gave up after ${attempt} attempts: ${failure.reason}` };
  return {
    status: 'queued',
    lastError: failure.reason,
    nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempt)),
  };
}
