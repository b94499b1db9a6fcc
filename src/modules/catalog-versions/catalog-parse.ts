import {
  CatalogFileError,
  type CatalogReading,
  type ParsedCatalog,
  readCatalogFile,
} from './catalog-file.js';
import { runCatalogWorker } from './catalog-worker.js';

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
  const request: ParseRequest = { content, reading };
  return runCatalogWorker<ParseReply, ParsedCatalog>(request, {
    timeoutMs: opts.timeoutMs ?? PARSE_TIMEOUT_MS,
    heapMb: opts.heapMb ?? PARSE_WORKER_HEAP_MB,
    onReply: (reply) => {
      if (reply.ok) return reply.parsed;
      throw reply.fileError ? new CatalogFileError(reply.message) : new Error(reply.message);
    },
    onFailure: (failure) => {
      switch (failure.kind) {
        case 'timeout':
          return stopped(`checking it took longer than ${failure.seconds} s; split it into smaller files`);
        case 'memory':
          return stopped(`it needs more than ${failure.heapMb} MB of memory; split it into smaller files`);
        case 'crash':
          return stopped(`the checker failed (${failure.message})`);
        case 'exit':
          return stopped(`the checker stopped unexpectedly (exit code ${failure.code})`);
      }
    },
  }).result;
}
