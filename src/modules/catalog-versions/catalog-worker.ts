import { runWorker, type WorkerFailure, type WorkerRun, workerEntry } from '../../core/worker-thread.js';

/**
 * The catalogue worker (catalog-parse-worker.ts) runs one request at a time: it reads a big file, or writes
 * one, off the main thread.
 */

/**
 * Starts the catalogue worker on `request` (its workerData). `onReply` turns the reply into the result or
 * throws; `onFailure` says what a failure means to the caller.
 */
export function runCatalogWorker<Reply, T>(
  request: unknown,
  opts: {
    timeoutMs: number;
    heapMb: number;
    onReply: (reply: Reply) => T;
    onFailure: (failure: WorkerFailure) => Error;
  },
): WorkerRun<T> {
  return runWorker(workerEntry(import.meta.url, 'catalog-parse-worker'), request, opts);
}
