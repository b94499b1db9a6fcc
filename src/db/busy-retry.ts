import { setTimeout as sleep } from 'node:timers/promises';

/**
 * SQLITE_BUSY and its extended codes (BUSY_RECOVERY, BUSY_SNAPSHOT, BUSY_TIMEOUT): another connection held a
 * lock this statement needed. A statement that failed so changed nothing, which is why it may be run again.
 */
export function isBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** First pause and longest pause between two tries; the pause doubles in between. */
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 50;

/**
 * Runs `attempt` (a synchronous SQLite call) until it does not fail with SQLITE_BUSY or `deadline`
 * (performance.now() time) passes, then throws the last busy error (a 503 for the caller's request).
 *
 * Why not SQLite's own busy_timeout: better-sqlite3 is synchronous, so its busy handler sleeps on the thread
 * that runs every request; a write waiting 5 s for another process froze the whole store for 5 s. Here the
 * connection's busy_timeout is 0 and the waiting happens between tries, on timers, with the event loop free.
 * The pauses are jittered so that two waiters that collided once do not collide again at every try.
 */
export async function retryWhileBusy<T>(attempt: () => T, deadline: number): Promise<T> {
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      const left = deadline - performance.now();
      if (!isBusy(error) || left <= 0) throw error;
      await sleep(Math.min(left, pause * (0.5 + Math.random())));
      pause = Math.min(LONGEST_PAUSE_MS, pause * 2);
    }
  }
}
