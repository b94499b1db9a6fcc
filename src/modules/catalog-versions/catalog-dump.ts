import { setImmediate as nextTurn } from 'node:timers/promises';
import { buildCatalogFile, type CatalogFileMetadata, type CatalogProduct } from './catalog-file.js';
import { runCatalogWorker } from './catalog-worker.js';

/**
 * Writes a catalogue file without stalling the store: the checksum and YAML of a big catalogue (seconds of
 * CPU at 50,000 products) are made in the catalogue worker (catalog-parse-worker.ts), a small one inline.
 * Both use buildCatalogFile, so the bytes and checksum are the same either way.
 */

/** Catalogues up to this many products are written inline: a worker's start-up costs more than their dump. */
export const INLINE_DUMP_MAX_PRODUCTS = 1_000;
/** Products per message to the worker: each message's structured clone is one short main-thread stretch. */
export const DUMP_CHUNK_PRODUCTS = 1_000;
/** Longest a worker may take over one dump before it is stopped. */
export const DUMP_TIMEOUT_MS = 300_000;
/** The worker's heap cap (the dump of a 50,000-product catalogue needs well under this). */
export const DUMP_WORKER_HEAP_MB = 768;

export type DumpRequest = { kind: 'dump'; metadata: CatalogFileMetadata };
export type DumpChunk = { end: false; products: CatalogProduct[] } | { end: true };
export type DumpReply = { ok: true; checksum: string; bytes: Uint8Array } | { ok: false; message: string };

export type DumpOptions = { inlineMaxProducts?: number; timeoutMs?: number; heapMb?: number };

function failed(reason: string): Error {
  return new Error(`The catalogue file could not be written: ${reason}.`);
}

/** buildCatalogFile's checksum and UTF-8 bytes; a catalogue of more than `inlineMaxProducts` is written in a worker. */
export async function dumpCatalogOffThread(
  metadata: CatalogFileMetadata,
  products: CatalogProduct[],
  opts: DumpOptions = {},
): Promise<{ checksum: string; content: Buffer }> {
  if (products.length <= (opts.inlineMaxProducts ?? INLINE_DUMP_MAX_PRODUCTS)) {
    const { checksum, text } = buildCatalogFile(metadata, products);
    return { checksum, content: Buffer.from(text, 'utf8') };
  }
  const request: DumpRequest = { kind: 'dump', metadata };
  const run = runCatalogWorker<DumpReply, { checksum: string; content: Buffer }>(request, {
    timeoutMs: opts.timeoutMs ?? DUMP_TIMEOUT_MS,
    heapMb: opts.heapMb ?? DUMP_WORKER_HEAP_MB,
    onReply: (reply) => {
      if (!reply.ok) throw failed(reply.message);
      const { bytes } = reply;
      return {
        checksum: reply.checksum,
        content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    },
    onFailure: (failure) => {
      switch (failure.kind) {
        case 'timeout':
          return failed(`it took longer than ${failure.seconds} s`);
        case 'memory':
          return failed(`it needs more than ${failure.heapMb} MB of memory`);
        case 'crash':
          return failed(`the writer failed (${failure.message})`);
        case 'exit':
          return failed(`the writer stopped unexpectedly (exit code ${failure.code})`);
      }
    },
  });
  // Messages queue until the worker listens; the loop turns between chunks.
  for (let i = 0; i < products.length && !run.settled(); i += DUMP_CHUNK_PRODUCTS) {
    const chunk: DumpChunk = { end: false, products: products.slice(i, i + DUMP_CHUNK_PRODUCTS) };
    run.worker.postMessage(chunk);
    await nextTurn();
  }
  if (!run.settled()) run.worker.postMessage({ end: true } satisfies DumpChunk);
  return run.result;
}
