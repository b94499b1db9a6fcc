import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CURRENCIES_FOR_TESTS,
  validCatalog,
  validCatalogMedia,
  validCatalogProduct,
} from '../../test-support/catalog-arbitraries.js';
import { insertProducts } from '../../test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  fixedClock,
  loginCookie,
  type TestStore,
} from '../../test-support/test-store.js';
import {
  CATALOG_FORMAT,
  CatalogFileError,
  type CatalogMedia,
  type CatalogProduct,
  catalogChecksum,
  serializeCatalog,
} from './catalog-file.js';
import { catalogProducts, exportCatalog, importCatalog, listVersions } from './catalog-versions.service.js';

/**
 * The YAML catalogue importer against generated input. Any text or bytes, and any document shaped like a
 * catalogue but wrong, either imports or is refused with a CatalogFileError (the HTTP route's 400): never
 * another error (a 500), and a refused import leaves the catalogue exactly as it was. A valid generated
 * catalogue survives export and import unchanged.
 */

const deps = (store: TestStore) => ({ db: store.handle.db, storage: store.storage, clock: fixedClock });
const snapshot = async (store: TestStore) => ({
  products: await catalogProducts(store.handle.db),
  versions: (await listVersions(store.handle.db)).length,
});

/** Imports, and checks the outcome: success, or a CatalogFileError with nothing changed. */
async function importChecked(store: TestStore, text: string, mode: 'add' | 'overwrite') {
  const before = await snapshot(store);
  try {
    const result = await importCatalog(deps(store), text, mode);
    const after = await snapshot(store);
    if (mode === 'add') {
      // Add mode only adds: every product that was there is there unchanged.
      expect(after.products.length).toBe(before.products.length + result.added);
      for (const p of before.products) expect(after.products).toContainEqual(p);
      expect(after.versions).toBe(before.versions);
    }
    return result;
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(CatalogFileError);
    const after = await snapshot(store);
    expect(after.products).toEqual(before.products);
    expect(after.versions).toBe(before.versions);
    return null;
  }
}

/** Pieces YAML gives meaning to, so generated text often gets past the first character of the parser. */
const yamlToken = fc.constantFrom(
  'products:',
  'metadata:',
  '- ',
  '  ',
  '\n',
  ': ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a ',
  '*a',
  '!!binary ',
  '!!js/function ',
  '<<: ',
  '__proto__: ',
  '"',
  "'",
  '#',
  '%YAML 1.2\n',
  '---\n',
  '...\n',
  '? ',
  '|\n',
  '>\n',
  'id: ',
  'title: ',
  'price: ',
  '\t',
  '\u0000',
  '\ufeff',
  '\u2028',
  '1e309',
  '.nan',
  '~',
);
const yamlish = fc
  .array(fc.oneof(yamlToken, fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 60 })
  .map((parts) => parts.join(''));

/** Values of the wrong kind for any field: JSON values, strings of any code point, NUL, huge numbers. */
const wrongValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u0000x',
    '\ud800',
    '-1',
    '1e400',
    'x'.repeat(5000),
    1e308,
    -1,
    2 ** 53 + 2,
  ),
);

/** A product: mostly its real keys, each either a good value or a wrong one, plus unknown keys. */
const PRODUCT_KEYS = [
  'id',
  'title',
  'description',
  'price',
  'currency',
  'pageOrder',
  'sizes',
  'sizeDetail',
  'colors',
  'colourStock',
  'stock',
  'tags',
  'images',
  'media',
  'manufacturerUrl',
  'imageFolder',
  'unknownKey',
] as const;

/** Values a media item's fields must refuse or clean: NUL-led names and URLs, paths out of media/uploads. */
const wrongMediaValue = fc.oneof(
  { weight: 1, arbitrary: wrongValue },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0000a.jpg',
      '../../etc/passwd',
      '\u202ejpg.exe',
      '\u0000https://img.example.com/a.jpg',
      { storageKey: '../store.db', variants: [] },
      { storageKey: 'media/uploads/../x', variants: [] },
    ),
  },
);
const MEDIA_KEYS = ['url', 'fileName', 'type', 'altText', 'order', 'upload'] as const;

/**
 * A product that is valid but for a few fields (so what follows the first wrong field is reached too): either
 * some of its own keys are wrong, or one field of one of its media items is.
 */
const productish = fc.oneof(
  fc
    .tuple(validCatalogProduct, fc.dictionary(fc.constantFrom(...PRODUCT_KEYS), wrongValue, { maxKeys: 3 }))
    .map(([base, wrong]) => ({ ...base, ...wrong })),
  fc
    .tuple(
      validCatalogProduct,
      fc.array(validCatalogMedia, { maxLength: 2 }),
      fc.constantFrom(...MEDIA_KEYS),
      wrongMediaValue,
    )
    .map(([base, media, key, value]) => ({
      ...base,
      media: [
        ...media,
        { ...(media[0] ?? { url: 'https://img.example.com/a.jpg', fileName: 'a.jpg' }), [key]: value },
      ],
    })),
);

const wrongDocument = fc.oneof(
  fc.record({
    metadata: fc.oneof(fc.constant({ format: CATALOG_FORMAT }), wrongValue),
    products: fc.array(productish, { maxLength: 5 }),
  }),
  fc.record({ metadata: wrongValue, products: wrongValue }, { requiredKeys: [] }),
  fc.array(productish, { maxLength: 3 }),
);

/** A plain valid product for the fixed examples. */
const EXAMPLE: CatalogProduct = {
  id: 'ex_1',
  title: 'Mint Lawn Kurta',
  description: 'Breezy lawn.',
  manufacturer: '',
  manufacturerUrl: '',
  sku: 'SKU-ex',
  price: '12.50',
  currency: 'usd',
  pageOrder: 1,
  sizes: ['S', 'M'],
  sizeDetail: {},
  colors: [],
  tags: [],
  imageFolder: '',
  images: [],
  stripePaymentLink: '',
  productLink: '',
  media: [],
};
const media = (fileName: string, order: number): CatalogMedia => ({
  url: `https://img.example.com/${fileName}`,
  fileName,
  type: 'image',
  altText: null,
  order,
});

function dump(doc: unknown, asJson: boolean): string {
  return asJson ? JSON.stringify(doc) : yaml.dump(doc, { noRefs: true, skipInvalid: true });
}

describe('the catalogue importer (property-based)', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'keep_1', title: 'Mint Lawn Kurta', tags: '["lawn"]' },
      { id: 'keep_2', title: 'Ivory Sherwani', price_minor: 48000, sizes: '["M","L"]' },
    ]);
  });
  afterAll(async () => store.cleanup());

  it('arbitrary text never throws anything but a CatalogFileError, and a refusal changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), yamlish),
        fc.constantFrom('add' as const, 'overwrite' as const),
        async (text, mode) => {
          await importChecked(store, text, mode);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('arbitrary bytes, read as the upload route reads them, behave the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
        await importChecked(store, Buffer.from(bytes).toString('utf8'), 'overwrite');
      }),
      { numRuns: 100 },
    );
  });

  it('documents shaped like a catalogue but wrong: imported per product, or refused with nothing changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        wrongDocument,
        fc.boolean(),
        fc.constantFrom('add' as const, 'overwrite' as const),
        async (doc, asJson, mode) => {
          const result = await importChecked(store, dump(doc, asJson), mode);
          if (result && mode === 'overwrite') {
            // An overwrite only happens with every product valid.
            expect(result.invalidCount).toBe(0);
          }
          // Put the starting catalogue back when an overwrite replaced it, so later runs start alike.
          if (result && mode === 'overwrite') {
            await store.handle.db.deleteFrom('products').execute();
            await insertProducts(store.handle.db, [
              { id: 'keep_1', title: 'Mint Lawn Kurta', tags: '["lawn"]' },
              { id: 'keep_2', title: 'Ivory Sherwani', price_minor: 48000, sizes: '["M","L"]' },
            ]);
          }
        },
      ),
      {
        numRuns: 120,
        // Always tried first: each was a 500 (a CHECK constraint failing inside the import) before the fix.
        examples: [
          [
            {
              products: [
                { ...EXAMPLE, media: [{ url: 'https://img.example.com/a.jpg', fileName: '\u0000a.jpg' }] },
              ],
            },
            false,
            'add',
          ],
          [
            {
              products: [
                { ...EXAMPLE, media: [{ url: '\u0000https://img.example.com/a.jpg', fileName: 'a.jpg' }] },
              ],
            },
            true,
            'overwrite',
          ],
          [{ products: [{ ...EXAMPLE, title: '\u0000' }] }, false, 'add'],
        ],
      },
    );
  });
});

describe('export and import round trip (property-based)', () => {
  let source: TestStore;
  let target: TestStore;
  beforeAll(async () => {
    source = await createTestStore();
    target = await createTestStore();
  });
  afterAll(async () => {
    await source.cleanup();
    await target.cleanup();
  });

  it('a valid generated catalogue imports whole, and its export imports back to the same catalogue', async () => {
    await fc.assert(
      fc.asyncProperty(validCatalog({ minLength: 1, maxLength: 6 }), async (products) => {
        const file = serializeCatalog({
          metadata: {
            format: CATALOG_FORMAT,
            exported_at: fixedClock.now().toISOString(),
            total_products: products.length,
            store_version: '1.0.0',
            checksum: catalogChecksum(products),
          },
          products,
        });
        const first = await importCatalog(deps(source), file, 'overwrite');
        expect(first.invalid).toEqual([]);
        expect(first.added).toBe(products.length);

        const exported = await exportCatalog(deps(source), { label: 'round trip' });
        const text = (await source.storage.read(`catalogs/${exported.fileName}`)).toString('utf8');
        const second = await importCatalog(deps(target), text, 'overwrite');
        expect(second.invalid).toEqual([]);
        const there = await catalogProducts(target.handle.db);
        expect(there).toEqual(await catalogProducts(source.handle.db));
        expect(catalogChecksum(there)).toBe(exported.checksum);
        // The generated values themselves come back (prices as exact minor units, in their currency), and so
        // do the colours (names alone or mappings, their prices and photos) and the stock per colour × size.
        expect(there.map((p) => [p.id, p.price, p.currency]).sort()).toEqual(
          products.map((p) => [p.id, p.price, p.currency]).sort(),
        );
        const colours = (list: CatalogProduct[]) =>
          new Map(list.map((p) => [p.id, [p.colors, p.stock ?? {}, p.colourStock ?? {}]]));
        expect(colours(there)).toEqual(colours(products));
      }),
      {
        numRuns: 25,
        // Always tried first: two media items sharing an order came back swapped before the fix.
        examples: [[[{ ...EXAMPLE, media: [media('b.jpg', 1), media('a.jpg', 1), media('c.jpg', 0)] }]]],
        // Each run writes files; a failure's shrinking is cut short rather than running past the test timeout.
        interruptAfterTimeLimit: 12_000,
        markInterruptAsFailure: true,
      },
    );
    expect(CURRENCIES_FOR_TESTS.length).toBeGreaterThan(1);
  });
});

/** `text` with the case of some ASCII letters swapped: the same SKU as the unique index compares them. */
function recase(text: string, flips: readonly boolean[]): string {
  return Array.from(text, (c, i) =>
    flips[i] && /^[A-Za-z]$/.test(c) ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c,
  ).join('');
}

describe('a generated catalogue that gives two products one SKU (property-based)', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store.cleanup());

  it('is refused whole by overwrite, and add mode lists the later product as invalid with the reason', async () => {
    const twoWithOneSku = validCatalog({ minLength: 2, maxLength: 5 }).chain((products) =>
      fc.record({
        products: fc.constant(products),
        pair: fc
          .uniqueArray(fc.nat(products.length - 1), { minLength: 2, maxLength: 2 })
          .map(([a = 0, b = 1]) => [Math.min(a, b), Math.max(a, b)] as const),
        flips: fc.array(fc.boolean(), { maxLength: 40 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(twoWithOneSku, async ({ products, pair: [first, later], flips }) => {
        const kept = products[first];
        const copy = products[later];
        if (!kept || !copy) throw new Error('pair out of range');
        const sku = recase(kept.sku, flips);
        const file = serializeCatalog({
          metadata: {
            format: CATALOG_FORMAT,
            exported_at: fixedClock.now().toISOString(),
            total_products: products.length,
            store_version: '1.0.0',
            checksum: '',
          },
          products: products.map((p) => (p === copy ? { ...p, sku } : p)),
        });
        const reason = `SKU "${sku}" is already used by "${kept.title}" (#${first + 1}, earlier in the file)`;

        const refusal = await importCatalog(deps(store), file, 'overwrite').catch((e: unknown) => e);
        expect(refusal).toBeInstanceOf(CatalogFileError);
        expect(String(refusal)).toContain(`#${later + 1} (${copy.id}): ${reason}`);
        expect(await catalogProducts(store.handle.db)).toEqual([]);

        const added = await importCatalog(deps(store), file, 'add');
        expect(added.invalid).toEqual([{ position: later + 1, id: copy.id, reason }]);
        expect(added.added).toBe(products.length - 1);
        await store.handle.db.deleteFrom('products').execute();
      }),
      { numRuns: 25, interruptAfterTimeLimit: 12_000, markInterruptAsFailure: true },
    );
  });
});

describe('the import route under generated files', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    app = await buildTestApp(store);
    cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('answers any uploaded file with 200 or a 400 that says why, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
          wrongDocument.map((d) => Buffer.from(dump(d, false))),
          yamlish.map((t) => Buffer.from(t)),
        ),
        fc.constantFrom('add', 'overwrite', 'bogus'),
        async (bytes, mode) => {
          const form = new FormData();
          form.append('mode', mode);
          form.append('file', new Blob([bytes], { type: 'application/yaml' }), 'catalog.yaml');
          const body = new Response(form);
          const res = await app.inject({
            method: 'POST',
            url: '/api/admin/catalog/import',
            headers: { cookie, 'content-type': body.headers.get('content-type') ?? '' },
            payload: Buffer.from(await body.arrayBuffer()),
          });
          expect([200, 400], res.body.slice(0, 300)).toContain(res.statusCode);
          if (res.statusCode === 400) {
            expect((res.json() as { message: string }).message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
