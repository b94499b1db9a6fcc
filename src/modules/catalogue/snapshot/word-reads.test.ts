import { afterEach, describe, expect, it } from 'vitest';
import { countingTicks } from '../../../test-support/event-loop-ticks.js';
import { insertProducts } from '../../../test-support/fixtures.js';
import { createTestStore, type TestStore, testEngine } from '../../../test-support/test-store.js';
import { type IndexWord, indexWords, readWordRowidLists, type WordRowidLists } from '../full-text.js';
import { logWordReads, stopWordReads, wordReadWorkerRunning, wordRowidLists } from './word-reads.js';

const TITLES = ['Emerald Silk Kurta', 'Rose Lawn Suit', 'Silk Saree', 'Kurta Pajama', 'Velvet Shawl'];

async function storeWithProducts(): Promise<TestStore> {
  const store = await createTestStore();
  await insertProducts(
    store.handle.db,
    Array.from({ length: 60 }, (_, i) => ({
      id: `p${i}`,
      title: `${TITLES[i % TITLES.length]} ${i}`,
      manufacturer: i % 3 === 0 ? 'Silk Route' : 'Lahore Loom',
      tags: i % 4 === 0 ? '["silk","eid"]' : '["lawn"]',
      page_order: i,
    })),
  );
  return store;
}

async function word(store: TestStore, q: string): Promise<IndexWord> {
  const [first] = (await indexWords(store.handle.db, q)) ?? [];
  if (!first) throw new Error(`no index word for ${q}`);
  return first;
}

const asArrays = (r: WordRowidLists) => ({
  any: [...r.any],
  title: [...r.title],
  tags: [...r.tags],
});

describe.skipIf(testEngine === 'postgres')('new words read in a worker (SQLite)', () => {
  const stores: TestStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) {
      await stopWordReads(s.handle.db);
      await s.cleanup();
    }
  });

  /** A store of its own (stopped after the test), with the word reads' warnings collected. */
  async function opened() {
    const store = await storeWithProducts();
    stores.push(store);
    const db = store.handle.db;
    const warnings: unknown[] = [];
    logWordReads(db, { warn: (obj: unknown) => void warnings.push(obj) });
    return { store, db, warnings };
  }

  it('reads in place below the size, and in the worker what the main thread would read above it', async () => {
    const { store, db } = await opened();
    const silk = await word(store, 'silk');
    const inPlace = await countingTicks(() => wordRowidLists(db, silk, { products: 60 }));
    expect(wordReadWorkerRunning(db)).toBe(false);
    // Synchronous SQLite: the read held the thread.
    expect(inPlace.ticks).toBe(0);

    let ticks = 0;
    for (const q of ['silk', 'ku', 'lawn', 'eid', 'route', 'nothinglikeit']) {
      const w = await word(store, q);
      const expected = asArrays(await readWordRowidLists(db, w));
      const inWorker = await countingTicks(() => wordRowidLists(db, w, { products: 60, inWorkerFrom: 10 }));
      expect(asArrays(inWorker.result)).toEqual(expected);
      ticks += inWorker.ticks;
    }
    // The main thread went on turning while the worker read (a reply may be waiting before the first turn
    // on a busy machine, so over all the words, not each).
    expect(ticks).toBeGreaterThan(0);
    expect((await wordRowidLists(db, silk, { products: 60, inWorkerFrom: 10 })).any.length).toBe(42);
    expect(wordReadWorkerRunning(db)).toBe(true);

    await stopWordReads(db);
    expect(wordReadWorkerRunning(db)).toBe(false);
    // Closed for good: read in place from then on.
    const after = await countingTicks(() => wordRowidLists(db, silk, { products: 60, inWorkerFrom: 10 }));
    expect(after.ticks).toBe(0);
    expect(wordReadWorkerRunning(db)).toBe(false);
  });

  it('stops a worker nobody asked for a while, and starts one again for the next word', async () => {
    const { store, db } = await opened();
    const at = { products: 60, inWorkerFrom: 10, reader: { idleMs: 50 } };
    const lawn = await word(store, 'lawn');
    const expected = asArrays(await readWordRowidLists(db, lawn));
    expect(asArrays(await wordRowidLists(db, lawn, at))).toEqual(expected);
    expect(wordReadWorkerRunning(db)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(wordReadWorkerRunning(db)).toBe(false);
    expect(asArrays(await wordRowidLists(db, lawn, at))).toEqual(expected);
    expect(wordReadWorkerRunning(db)).toBe(true);
  });

  it('answers from the main thread when the worker fails, says so in the log, and pauses the worker', async () => {
    const { store, db, warnings } = await opened();
    // No worker answers in 0 ms: the read is given up, as a hung worker's would be.
    const at = { products: 60, inWorkerFrom: 10, reader: { readTimeoutMs: 0, pauseMs: 60_000 } };
    const silk = await word(store, 'silk');
    const expected = asArrays(await readWordRowidLists(db, silk));
    expect(asArrays(await wordRowidLists(db, silk, at))).toEqual(expected);
    expect(warnings).toEqual([expect.objectContaining({ event: 'search.word_worker_failed' })]);
    expect(wordReadWorkerRunning(db)).toBe(false);
    // Paused: the next word is read in place at once, without a new worker.
    const next = await countingTicks(() => wordRowidLists(db, silk, at));
    expect(asArrays(next.result)).toEqual(expected);
    expect(next.ticks).toBe(0);
    expect(wordReadWorkerRunning(db)).toBe(false);
  });

  it('answers a read the closing store cut short from the main thread, without calling it a failure', async () => {
    const { store, db, warnings } = await opened();
    const silk = await word(store, 'silk');
    const expected = asArrays(await readWordRowidLists(db, silk));
    const reading = wordRowidLists(db, silk, { products: 60, inWorkerFrom: 10 });
    expect(wordReadWorkerRunning(db)).toBe(true);
    await stopWordReads(db);
    expect(asArrays(await reading)).toEqual(expected);
    expect(warnings).toEqual([]);
    expect(wordReadWorkerRunning(db)).toBe(false);
  });
});
