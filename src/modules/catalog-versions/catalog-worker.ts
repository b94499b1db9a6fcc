import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The catalogue worker (catalog-parse-worker.ts) runs one request at a time: it reads a big file, or writes
 * one, off the main thread. A run settles once: on the worker's reply, or when it runs out of time or
 * memory, fails or exits; the worker is stopped either way.
 */

/** Why a run ended without a reply. */
export type WorkerFailure =
  | { kind: 'timeout'; seconds: number }
  | { kind: 'memory'; heapMb: number }
  | { kind: 'crash'; message: string }
  | { kind: 'exit'; code: number };

/**
 * The worker's entry next to this module: dist/catalog-parse-worker.js beside the bundled server (its own
 * esbuild entry), or under tsx and vitest catalog-parse-worker-tsx.mjs, which loads the .ts worker through tsx.
 */
export function workerEntry(): URL {
  for (const name of ['./catalog-parse-worker.js', './catalog-parse-worker-tsx.mjs']) {
    const url = new URL(name, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error(`The catalogue parse worker is missing next to ${fileURLToPath(import.meta.url)}.`);
}

export type WorkerRun<T> = {
  worker: Worker;
  result: Promise<T>;
  /** True once the run has settled: messages posted after that go nowhere. */
  settled: () => boolean;
};

/**
 * Starts a worker on `request` (its workerData). `onReply` turns the reply into the result or throws;
 * `onFailure` says what a failure means to the caller.
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
  const worker = new Worker(workerEntry(), {
    workerData: request,
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: opts.heapMb },
  });
  let settled = false;
  const result = new Promise<T>((resolve, reject) => {
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const fail = (failure: WorkerFailure) => settle(() => reject(opts.onFailure(failure)));
    const timer = setTimeout(
      () => fail({ kind: 'timeout', seconds: Math.round(opts.timeoutMs / 1000) }),
      opts.timeoutMs,
    );
    worker.on('message', (reply: Reply) =>
      settle(() => {
        try {
          resolve(opts.onReply(reply));
        } catch (error) {
          reject(error);
        }
      }),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      fail(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'memory', heapMb: opts.heapMb }
          : { kind: 'crash', message: err.message },
      ),
    );
    worker.on('exit', (code) => fail({ kind: 'exit', code }));
  });
  return { worker, result, settled: () => settled };
}
