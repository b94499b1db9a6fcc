/**
 * The error a write gets when it waited its whole budget for the write lock: the same code SQLite gives, so
 * every handler that answers SQLITE_BUSY with 503 "The store is busy right now" (trpc/init.ts) answers it too.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'SQLITE_BUSY';
}

/**
 * This process's turn at the one write connection: held from a write's first statement (or BEGIN) to its
 * end, so a transaction that awaits (and lets the event loop run other requests) never has another request's
 * statements run inside it. Waiters are served first come, first served, and give up at their deadline
 * (performance.now() time), so a long import makes a checkout wait at most the lock budget, then 503.
 */
export class WriterLock {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  async acquire(deadline: number): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          this.#waiting.splice(this.#waiting.indexOf(grant), 1);
          reject(new DatabaseBusyError('database is locked: another write of this process held it too long'));
        },
        Math.max(0, deadline - performance.now()),
      );
      this.#waiting.push(grant);
    });
  }

  /** Hands the lock to the longest waiter, if any (it stays held), else frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
