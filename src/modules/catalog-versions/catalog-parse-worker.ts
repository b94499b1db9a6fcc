/**
 * The catalogue worker: reads one catalogue file (YAML, hostile-input checks, per-product validation) off the
 * main thread, or writes one (the dump of a backup or export: checksum and YAML), and posts back plain data.
 * It imports only the pure reader and writer, never the database.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DumpChunk, DumpReply, DumpRequest } from './catalog-dump.js';
import { buildCatalogFile, CatalogFileError, type CatalogProduct, readCatalogFile } from './catalog-file.js';
import type { ParseReply, ParseRequest } from './catalog-parse.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const request = workerData as ParseRequest | DumpRequest;

if ('kind' in request && request.kind === 'dump') {
  // The products arrive in chunks (each a short structured clone on the main thread), then `end`.
  const products: CatalogProduct[] = [];
  parentPort?.on('message', (chunk: DumpChunk) => {
    if (!chunk.end) {
      for (const p of chunk.products) products.push(p);
      return;
    }
    let reply: DumpReply;
    let transfer: ArrayBuffer[] = [];
    try {
      const { checksum, text } = buildCatalogFile(request.metadata, products);
      const bytes = new TextEncoder().encode(text);
      reply = { ok: true, checksum, bytes };
      transfer = [bytes.buffer as ArrayBuffer];
    } catch (err) {
      reply = { ok: false, message: message(err) };
    }
    parentPort?.postMessage(reply, transfer);
    parentPort?.close();
  });
} else {
  const { content, reading } = request as ParseRequest;
  let reply: ParseReply;
  try {
    reply = { ok: true, parsed: readCatalogFile(content, reading) };
  } catch (err) {
    reply = { ok: false, fileError: err instanceof CatalogFileError, message: message(err) };
  }
  parentPort?.postMessage(reply);
}
