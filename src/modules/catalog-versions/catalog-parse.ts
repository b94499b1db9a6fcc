import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  CatalogFileError,
  type CatalogReading,
  type ParsedCatalog,
  readCatalogFile,
} from './catalog-file.js';

/**
 * Reads a catalogue file without stalling the store: a big file is parsed and validated in a worker thread
 * (a 50,000-product file takes seconds of CPU), a small one inline. The result and the errors are the
 * inline reader's own.
 */

/** Files up to this size are read inline: a worker's start-up costs more than their parse. */
export const INLINE_PARSE_MAX_BYTES = 256 * 1024;
/** Longest a worker may take over one file before it is stopped. */
export const PARSE_TIMEOUT_MS = 300_000;
/** The worker's heap cap: a hostile file fails the import instead of taking the process down. */
export const PARSE_WORKER_HEAP_MB = 768;

export type ParseRequest = { content: string; reading: CatalogReading };
export type ParseReply =
  | { ok: true; parsed: ParsedCatalog }
  | { ok: false; fileError: boolean; message: string };

export type ParseOptions = { inlineMaxBytes?: number; timeoutMs?: number; heapMb?: number };

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

function stopped(reason: string): CatalogFileError {
  return new CatalogFileError(`The file could not be checked: ${reason}. Nothing was changed.`);
}

/** Reads a catalogue file as readCatalogFile does; a file over `inlineMaxBytes` is read in a worker thread. */
export async function readCatalogFileOffThread(
  content: string,
  reading: CatalogReading,
  opts: ParseOptions = {},
): Promise<ParsedCatalog> {
  const inlineMax = opts.inlineMaxBytes ?? INLINE_PARSE_MAX_BYTES;
  // content.length <= bytes <= 3 * length (UTF-16 code units to UTF-8): only measure when it matters.
  if (content.length * 3 <= inlineMax || Buffer.byteLength(content, 'utf8') <= inlineMax) {
    return readCatalogFile(content, reading);
  }
  const timeoutMs = opts.timeoutMs ?? PARSE_TIMEOUT_MS;
  const heapMb = opts.heapMb ?? PARSE_WORKER_HEAP_MB;
  const entry = workerEntry();
  const request: ParseRequest = { content, reading };
  const worker = new Worker(entry, {
    workerData: request,
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
  return new Promise<ParsedCatalog>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            stopped(
              `checking it took longer than ${Math.round(timeoutMs / 1000)} s; split it into smaller files`,
            ),
          ),
        ),
      timeoutMs,
    );
    worker.on('message', (reply: ParseReply) =>
      settle(() => {
        if (reply.ok) resolve(reply.parsed);
        else reject(reply.fileError ? new CatalogFileError(reply.message) : new Error(reply.message));
      }),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? stopped(`it needs more than ${heapMb} MB of memory; split it into smaller files`)
            : stopped(`the checker failed (${err.message})`),
        ),
      ),
    );
    worker.on('exit', (code) =>
      settle(() => reject(stopped(`the checker stopped unexpectedly (exit code ${code})`))),
    );
  });
}
