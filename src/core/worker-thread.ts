import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * One request to a worker thread, which answers once (the catalogue worker, the facet load worker). A run
 * settles once: on the worker's reply, or when it runs out of time or memory, fails or exits; the worker is
 * stopped either way.
 */

/** Why a run ended without a reply. */
export type WorkerFailure =
  | { kind: 'timeout'; seconds: number }
  | { kind: 'memory'; heapMb: number }
  | { kind: 'crash'; message: string }
  | { kind: 'exit'; code: number };

/**
 * A worker's entry next to the module that starts it (`nextTo`, its import.meta.url): `<name>.js` beside the
 * bundled server (each worker is its own esbuild entry in scripts/build-server.mjs), or under tsx and vitest
 * `<name>-tsx.mjs`, which loads the TypeScript worker through tsx.
 */
export function workerEntry(nextTo: string, name: string): URL {
  for (const file of [`./${name}.js`, `./${name}-tsx.mjs`]) {
    const url = new URL(file, nextTo);
    if (existsSync(url)) return url;
  }
  throw new Error(`The worker ${name} is missing next to ${fileURLToPath(nextTo)}.`);
}

export type WorkerRun<T> = {
  worker: Worker;
  result: Promise<T>;
  /** True once the run has settled: messages posted after that go nowhere. */
  settled: () => boolean;
};

/**
 * Starts the worker at `entry` on `request` (its workerData). `onReply` turns the reply into the result or
 * throws; `onFailure` says what a failure means to the caller.
 */
export function runWorker<Reply, T>(
  entry: URL,
  request: unknown,
  opts: {
    timeoutMs: number;
    heapMb: number;
    onReply: (reply: Reply) => T;
    onFailure: (failure: WorkerFailure) => Error;
  },
): WorkerRun<T> {
  const worker = new Worker(entry, {
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
