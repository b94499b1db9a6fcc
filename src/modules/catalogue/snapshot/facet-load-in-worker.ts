import { runWorker, workerEntry } from '../../../core/worker-thread.js';
import type { DatabaseSource } from '../../../db/database-source.js';
import type { FacetLoad } from './facet-load.js';

/**
 * Reads the catalogue's facets in a worker thread (facet-load-worker.ts) on a connection of its own, so the
 * main thread only turns the arrays it gets back into a snapshot.
 */

/** Longest a load may take before its worker is stopped (100,000 products take about a second). */
export const FACET_LOAD_TIMEOUT_MS = 120_000;
/** The worker's heap cap: 100,000 products need about 60 MB. */
export const FACET_LOAD_WORKER_HEAP_MB = 512;

export type FacetLoadReply = { ok: true; load: FacetLoad } | { ok: false; message: string };

export type FacetLoadOptions = { timeoutMs?: number; heapMb?: number };

/** readFacetLoad on the database at `source`, in a worker; it rejects with why the worker failed. */
export function readFacetLoadInWorker(
  source: DatabaseSource,
  opts: FacetLoadOptions = {},
): Promise<FacetLoad> {
  return runWorker<FacetLoadReply, FacetLoad>(workerEntry(import.meta.url, 'facet-load-worker'), source, {
    timeoutMs: opts.timeoutMs ?? FACET_LOAD_TIMEOUT_MS,
    heapMb: opts.heapMb ?? FACET_LOAD_WORKER_HEAP_MB,
    onReply: (reply) => {
      if (!reply.ok) throw new Error(`the facet load failed in its worker: ${reply.message}`);
      return reply.load;
    },
    onFailure: (failure) => {
      switch (failure.kind) {
        case 'timeout':
          return new Error(`the facet load worker took longer than ${failure.seconds} s`);
        case 'memory':
          return new Error(`the facet load worker needed more than ${failure.heapMb} MB`);
        case 'crash':
          return new Error(`the facet load worker failed (${failure.message})`);
        case 'exit':
          return new Error(`the facet load worker stopped unexpectedly (exit code ${failure.code})`);
      }
    },
  }).result;
}
