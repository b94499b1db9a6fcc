/**
 * The word read worker: reads a shopper's new words from the full-text index (readWordRowidLists) on a
 * read-only connection of its own, one request after another, and posts each word's rowids back with their
 * arrays moved, not copied. A broad prefix ('we' matches every product) is 15-25 ms of SQLite at 100,000
 * products, which on the main thread would hold up every other shopper's request for that long.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseSource } from '../../../db/database-source.js';
import { openReadOnlyConnection } from '../../../db/read-only-connection.js';
import { readWordRowidLists } from '../full-text.js';
import type { WordReadReply, WordReadRequest } from './word-reads.js';

const connection = openReadOnlyConnection(workerData as DatabaseSource);

parentPort?.on('message', (request: WordReadRequest | 'close') => {
  if (request === 'close') {
    void connection
      .close()
      .catch(() => undefined)
      .finally(() => parentPort?.close());
    return;
  }
  readWordRowidLists(connection.db, request.word).then(
    (rowids) => {
      const reply: WordReadReply = { id: request.id, ok: true, rowids };
      parentPort?.postMessage(reply, [rowids.any.buffer, rowids.title.buffer, rowids.tags.buffer]);
    },
    (err: unknown) => {
      const reply: WordReadReply = {
        id: request.id,
        ok: false,
        message: err instanceof Error ? err.message : String(err),
      };
      parentPort?.postMessage(reply);
    },
  );
});
