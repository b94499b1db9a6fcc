/**
 * The facet load worker: reads the catalogue's facets (readFacetLoad) on a read-only connection of its own
 * and posts them back with their arrays moved, not copied. At 100,000 products that read is about a second
 * of CPU that would otherwise stall every request on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseSource } from '../../../db/database-source.js';
import { openReadOnlyConnection } from '../../../db/read-only-connection.js';
import { loadBuffers, readFacetLoad } from './facet-load.js';
import type { FacetLoadReply } from './facet-load-in-worker.js';

const connection = openReadOnlyConnection(workerData as DatabaseSource);
let reply: FacetLoadReply;
let transfer: ArrayBuffer[] = [];
try {
  const load = await readFacetLoad(connection.db);
  reply = { ok: true, load };
  transfer = loadBuffers(load);
} catch (err) {
  reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
} finally {
  // Closed before the reply: the main thread stops the worker as soon as it has it.
  await connection.close();
}
parentPort?.postMessage(reply, transfer);
