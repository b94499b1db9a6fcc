import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { workerEntry } from '../../../core/worker-thread.js';
import type { DbOrTx } from '../../../db/database.js';
import { type DatabaseSource, databaseSource } from '../../../db/database-source.js';
import { type IndexWord, readWordRowidLists, type WordRowidLists } from '../full-text.js';

/**
 * A shopper's new words read off the main thread on SQLite (word-read-worker.ts), whose reads are
 * synchronous: a broad prefix is tens of milliseconds at 100,000 products, and every other shopper's
 * request waited for it. PostgreSQL's reads are asynchronous already, and a small catalogue's words cost
 * less than the trip to a worker: both read where they are asked.
 */

/**
 * From this many products a SQLite catalogue's words are read in the worker: a broad prefix ('we') reads
 * about 4 ms there, 15-25 ms at 100,000; below it the worker's memory (an isolate and a connection, some
 * 8 MB resident) is not worth it.
 */
export const WORD_READS_IN_WORKER_FROM = 25_000;
/** A worker nobody asked for a word this long closes its connection and stops. */
const IDLE_MS = 60_000;
/** A word read that takes longer stops the worker (a read waits at most LOCK_WAIT_MS for a lock). */
const READ_TIMEOUT_MS = 15_000;
/** After the worker failed, words are read on the main thread this long before a new one is tried. */
const PAUSE_AFTER_FAILURE_MS = 60_000;
const WORKER_HEAP_MB = 256;

export type WordReadRequest = { id: number; word: IndexWord };
export type WordReadReply =
  | { id: number; ok: true; rowids: WordRowidLists }
  | { id: number; ok: false; message: string };

type Waiting = {
  resolve: (rowids: WordRowidLists) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

export type WordReaderOptions = { idleMs?: number; readTimeoutMs?: number; pauseMs?: number };

/** One database's worker, started at the first word and stopped when idle, failing or closed. */
class WordReader {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private idleTimer: NodeJS.Timeout | null = null;
  private pausedUntil = 0;

  constructor(
    private readonly source: DatabaseSource,
    private readonly opts: Required<WordReaderOptions>,
  ) {}

  /** The word's rowids from the worker; null while it is paused (the caller reads it itself). */
  read(word: IndexWord): Promise<WordRowidLists> | null {
    if (Date.now() < this.pausedUntil) return null;
    let worker: Worker;
    try {
      worker = this.running();
    } catch (err) {
      // Could not be started (its entry missing, no memory for a thread): paused like a failed one.
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return Promise.reject(err);
    }
    const id = this.nextId++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    // Kept alive while it owes an answer; an idle worker never holds the process open.
    if (this.waiting.size === 0) worker.ref();
    return new Promise<WordRowidLists>((resolve, reject) => {
      // From the post, not from when the worker takes it up: reads wait behind each other there, but a
      // store has only a few in flight (the public-query gate runs one query at a time on SQLite).
      const timer = setTimeout(
        () => this.fail(new Error(`a word read took longer than ${this.opts.readTimeoutMs} ms`)),
        this.opts.readTimeoutMs,
      );
      this.waiting.set(id, { resolve, reject, timer });
      const request: WordReadRequest = { id, word };
      worker.postMessage(request);
    });
  }

  /** Whether a worker is running now (for tests and the idle stop). */
  get started(): boolean {
    return this.worker !== null;
  }

  async close(): Promise<void> {
    await this.stop(new Error('the store is closing'));
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerEntry(import.meta.url, 'word-read-worker'), {
      workerData: this.source,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.unref();
    worker.on('message', (reply: WordReadReply) => this.settle(reply));
    // Events of a worker already replaced (one closing after an idle stop) are not this one's failures.
    worker.on('error', (err) => {
      if (this.worker === worker) this.fail(err);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.fail(new Error(`the word read worker stopped (exit code ${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(reply: WordReadReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.ok) waiting.resolve(reply.rowids);
    else waiting.reject(new Error(reply.message));
    if (this.waiting.size === 0) this.rest();
  }

  /** Nothing owed: the worker may let the process exit, and stops if nobody asks for a while. */
  private rest(): void {
    this.worker?.unref();
    this.idleTimer = setTimeout(() => void this.stop(null), this.opts.idleMs);
    this.idleTimer.unref();
  }

  private fail(error: Error): void {
    this.pausedUntil = Date.now() + this.opts.pauseMs;
    void this.stop(error);
  }

  /** Stops the worker; what it still owed is rejected with `error` (the callers then read it themselves). */
  private async stop(error: Error | null): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(error ?? new Error('the word read worker stopped'));
      this.waiting.delete(id);
    }
    if (!worker) return;
    // Asked to close its connection first; stopped regardless if it does not exit soon.
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    await worker.terminate();
  }
}

const readers = new WeakMap<object, WordReader>();
const closed = new WeakSet<object>();
const logs = new WeakMap<object, Pick<FastifyBaseLogger, 'warn'>>();

/** Where `db`'s word read worker reports that it failed (the app's log); without one it fails silently. */
export function logWordReads(db: DbOrTx, log: Pick<FastifyBaseLogger, 'warn'>): void {
  logs.set(db, log);
}

/**
 * A word's rowids: in the worker for a SQLite catalogue of `products` or more, else (and whenever the worker
 * cannot answer) where the caller is, as before. `reader` options apply when the worker is first needed.
 */
export async function wordRowidLists(
  db: DbOrTx,
  word: IndexWord,
  at: { products: number; inWorkerFrom?: number; reader?: WordReaderOptions },
): Promise<WordRowidLists> {
  const source = databaseSource(db);
  const large = at.products >= (at.inWorkerFrom ?? WORD_READS_IN_WORKER_FROM);
  if (source?.engine === 'sqlite' && large && !closed.has(db)) {
    let reader = readers.get(db);
    if (!reader) {
      reader = new WordReader(source, {
        idleMs: IDLE_MS,
        readTimeoutMs: READ_TIMEOUT_MS,
        pauseMs: PAUSE_AFTER_FAILURE_MS,
        ...at.reader,
      });
      readers.set(db, reader);
    }
    try {
      const read = reader.read(word);
      if (read) return await read;
    } catch (err) {
      // Closing is no failure: the reads it cut short are answered here, as every later one is.
      if (!closed.has(db)) {
        logs
          .get(db)
          ?.warn(
            { err, event: 'search.word_worker_failed' },
            'the word read worker could not answer: the word was read on the main thread',
          );
      }
    }
  }
  return readWordRowidLists(db, word);
}

/** Whether `db` has a word read worker running now. */
export function wordReadWorkerRunning(db: DbOrTx): boolean {
  return readers.get(db)?.started ?? false;
}

/** Stops `db`'s word read worker for good (the store is closing); later words are read in place. */
export async function stopWordReads(db: DbOrTx): Promise<void> {
  closed.add(db);
  await readers.get(db)?.close();
}
