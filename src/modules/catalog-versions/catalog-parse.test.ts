import { describe, expect, it } from 'vitest';
import { countingTicks } from '../../test-support/event-loop-ticks.js';
import { CatalogFileError, readCatalogFile } from './catalog-file.js';
import { INLINE_PARSE_MAX_BYTES, readCatalogFileOffThread } from './catalog-parse.js';

/** A storefront-format file of `count` products, every id given (so inline and worker reads compare equal). */
function bigCatalogue(count: number, extra = ''): string {
  const lines = Array.from(
    { length: count },
    (_, i) =>
      `  - { id: big_${i}, sku: BIG-${i % 20_000}, title: Big ${i}, description: Generated, price: '10.00', currency: usd, tags: [a, b], media: [{ url: 'https://img.example.com/${i}.jpg', fileName: '${i}.jpg' }] }`,
  );
  return `metadata: { format: storefront-catalog/1 }\nproducts:\n${lines.join('\n')}\n${extra}`;
}

describe('reading a catalogue file off the main thread', () => {
  it('keeps the event loop turning while a big file is parsed, with the inline result', async () => {
    // 25,000 products (about 5 MB): seconds of parse and validation, in one synchronous stretch if inline.
    const content = bigCatalogue(25_000, '  - { id: bad_1, title: "", price: nope }\n');
    expect(content.length).toBeGreaterThan(INLINE_PARSE_MAX_BYTES);
    const { result, ticks } = await countingTicks(() => readCatalogFileOffThread(content, 'whole'));
    // Inline, the parse would return before a single setImmediate ran.
    expect(ticks).toBeGreaterThan(100);
    const inline = readCatalogFile(content, 'whole');
    expect(result).toEqual(inline);
    // Duplicate SKUs past 20,000 and the bad product: the same issues and counts as inline.
    expect(result.invalidCount).toBe(5_001);
    expect(result.items).toHaveLength(20_000);
  }, 60_000);

  it('reads the same way for add mode', async () => {
    const content = bigCatalogue(3_000);
    expect(content.length).toBeGreaterThan(INLINE_PARSE_MAX_BYTES);
    expect(await readCatalogFileOffThread(content, 'add')).toEqual(readCatalogFile(content, 'add'));
  }, 30_000);

  it("gives a big hostile file the inline reader's CatalogFileError", async () => {
    const content = bigCatalogue(3_000, 'extra: &a [1]\nmore: *a\n');
    const inline = (() => {
      try {
        readCatalogFile(content, 'whole');
      } catch (err) {
        return err;
      }
    })();
    expect(inline).toBeInstanceOf(CatalogFileError);
    const err = await readCatalogFileOffThread(content, 'whole').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogFileError);
    expect((err as Error).message).toBe((inline as Error).message);
  }, 30_000);

  it('stops a worker past its time or memory and says so, as a CatalogFileError', async () => {
    const content = bigCatalogue(25_000);
    const late = await readCatalogFileOffThread(content, 'whole', { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(CatalogFileError);
    expect((late as Error).message).toMatch(
      /^The file could not be checked: checking it took longer than .*Nothing was changed\.$/,
    );
    const greedy = await readCatalogFileOffThread(content, 'whole', { heapMb: 16 }).catch((e: unknown) => e);
    expect(greedy).toBeInstanceOf(CatalogFileError);
    expect((greedy as Error).message).toBe(
      'The file could not be checked: it needs more than 16 MB of memory; split it into smaller files. Nothing was changed.',
    );
  }, 60_000);
});
