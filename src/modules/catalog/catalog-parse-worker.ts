/**
 * The catalogue parse worker: reads one catalogue file (YAML, hostile-input checks, per-product validation)
 * off the main thread and posts back plain data. It imports only the pure reader, never the database.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CatalogFileError, readCatalogFile } from './catalog-file.js';
import type { ParseReply, ParseRequest } from './catalog-parse.js';

const { content, reading } = workerData as ParseRequest;
let reply: ParseReply;
try {
  reply = { ok: true, parsed: readCatalogFile(content, reading) };
} catch (err) {
  reply = {
    ok: false,
    fileError: err instanceof CatalogFileError,
    message: err instanceof Error ? err.message : String(err),
  };
}
parentPort?.postMessage(reply);
