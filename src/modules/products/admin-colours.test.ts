import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ProductFieldsInput, productFields } from '../../shared/product-input.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  SESSION_FACTS,
  type TestStore,
} from '../../test-support/test-store.js';

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

const fields = (over: Partial<ProductFieldsInput> = {}): ProductFieldsInput => ({
  title: 'Lawn Kurta',
  description: 'Breezy lawn with jaal print.',
  sku: 'LK-1',
  price: '89.99',
  currency: 'usd',
  sizes: ['S', 'M', 'L'],
  tags: [],
  ...over,
});

type Issue = { path: Array<string | number>; message: string };
/** The Zod issues of a refusal (the router's input check, or a refusal it raised with a ZodError cause). */
async function refusal(call: Promise<unknown>): Promise<{ code: unknown; issues: Issue[] }> {
  const error = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { code?: unknown; cause?: { issues?: Issue[] } } | null;
  expect(error, 'the call was refused').not.toBeNull();
  return { code: error?.code, issues: error?.cause?.issues ?? [] };
}
const at = (issues: Issue[], path: string) => issues.find((i) => i.path.join('.') === path)?.message;

describe('colours in the admin', () => {
  let store: TestStore;
  let caller: ReturnType<TestStore['caller']>;
  beforeEach(async () => {
    store = await createTestStore();
    caller = store.caller({ admin });
  });
  afterEach(async () => store.cleanup());

  async function addPhoto(
    productId: string,
    id: string,
    url: string,
    fileName = url.split('/').pop() ?? url,
  ) {
    await store.handle.db
      .insertInto('media')
      .values({
        id,
        product_id: productId,
        url,
        file_name: fileName,
        media_type: 'image',
        display_order: 0,
        alt_text: null,
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:00.000Z',
        storage_key: null,
      })
      .execute();
  }

  it('creates and updates a product with colours; colours and their stock read back through byId and the list', async () => {
    const created = await caller.admin.products.create({
      fields: fields({
        colors: [
          { name: ' Teal ', hex: '#1F7A6D', skuSuffix: '-TEAL', price: '95.50' },
          { name: 'Maroon', price: '' },
        ],
        stock: { S: 4 },
        colourStock: { teal: { M: 1 }, Maroon: { M: 3, L: 0 } },
      }),
    });
    const read = await caller.admin.products.byId({ id: created.id });
    expect(read.colors).toEqual([
      { name: 'Teal', hex: '#1f7a6d', skuSuffix: '-TEAL', price: '95.50', images: [], sizeDetail: null },
      { name: 'Maroon', hex: null, skuSuffix: null, price: '', images: [], sizeDetail: null },
    ]);
    expect(read.stock).toEqual({ S: 4 });
    expect(read.colourStock).toEqual({ Teal: { M: 1 }, Maroon: { M: 3, L: 0 } });

    // The form saves what it read back unchanged, plus a photo for Teal and its own chart.
    await addPhoto(created.id, 'm-teal', '/media/uploads/teal-front.webp');
    const updated = await caller.admin.products.update({
      id: created.id,
      expectedUpdatedAt: read.updatedAt,
      fields: fields({
        colors: [
          {
            ...read.colors[0],
            name: 'Teal',
            images: ['/media/uploads/teal-front.webp'],
            sizeDetail: { M: { 'Chest (in)': '40' } },
          },
          { ...read.colors[1], name: 'Maroon' },
        ],
        stock: read.stock,
        colourStock: { Teal: { M: 2 }, Maroon: { M: 3 } },
      }),
    });
    expect(updated.colors[0]).toMatchObject({
      name: 'Teal',
      images: ['/media/uploads/teal-front.webp'],
      sizeDetail: { M: { 'Chest (in)': '40' } },
    });
    expect((await caller.admin.products.byId({ id: created.id })).colourStock).toEqual({
      Teal: { M: 2 },
      Maroon: { M: 3 },
    });

    const [row] = (await caller.admin.products.list({})).items;
    expect(row?.colours).toEqual(['Teal', 'Maroon']);
    expect(row?.stock).toEqual(
      expect.arrayContaining([
        { colour: null, size: 'S', onHand: 4, reserved: 0 },
        { colour: 'Teal', size: 'M', onHand: 2, reserved: 0 },
        { colour: 'Maroon', size: 'M', onHand: 3, reserved: 0 },
      ]),
    );
    const low = await caller.admin.products.lowStock();
    expect(low.items.map((i) => [i.colour, i.size, i.left])).toEqual([['Teal', 'M', 2]]);
  });

  it("refuses a colour photo of another product, or of no product, at that colour's images", async () => {
    const mine = await caller.admin.products.create({ fields: fields({ colors: ['Teal', 'Maroon'] }) });
    const other = await caller.admin.products.create({ fields: fields({ sku: 'OTHER', title: 'Other' }) });
    await addPhoto(mine.id, 'm-mine', '/media/uploads/mine.webp');
    await addPhoto(other.id, 'm-other', '/media/uploads/other.webp');
    const save = (images: string[]) =>
      caller.admin.products.update({
        id: mine.id,
        expectedUpdatedAt: mine.updatedAt,
        fields: fields({
          colors: [
            { name: 'Teal', images: ['/media/uploads/mine.webp'] },
            { name: 'Maroon', images },
          ],
        }),
      });
    for (const foreign of ['/media/uploads/other.webp', 'https://elsewhere.example/x.jpg']) {
      const { code, issues } = await refusal(save([foreign]));
      expect(code).toBe('BAD_REQUEST');
      expect(at(issues, 'fields.colors.1.images')).toBe(
        `Maroon: a photo that is not among this product's photos (${foreign})`,
      );
      expect(at(issues, 'fields.colors.0.images')).toBeUndefined();
    }
    // Nothing was written by the refused saves.
    expect((await caller.admin.products.byId({ id: mine.id })).colors.map((c) => c.images)).toEqual([[], []]);
    // Its own photo is taken.
    const saved = await save(['/media/uploads/mine.webp']);
    expect(saved.colors.map((c) => c.images)).toEqual([
      ['/media/uploads/mine.webp'],
      ['/media/uploads/mine.webp'],
    ]);
  });

  it("takes a photo from the product's images list (a plain catalogue file's), and none on create", async () => {
    const p = await caller.admin.products.create({ fields: fields({ colors: ['Teal'] }) });
    await store.handle.db
      .updateTable('products')
      .set({ images: JSON.stringify(['https://cdn.example/listed.jpg']) })
      .where('id', '=', p.id)
      .execute();
    const byId = await caller.admin.products.byId({ id: p.id });
    expect(byId.listedImages).toEqual(['https://cdn.example/listed.jpg']);
    const saved = await caller.admin.products.update({
      id: p.id,
      expectedUpdatedAt: byId.updatedAt,
      fields: fields({ colors: [{ name: 'Teal', images: ['https://cdn.example/listed.jpg'] }] }),
    });
    expect(saved.colors[0]?.images).toEqual(['https://cdn.example/listed.jpg']);

    const { issues } = await refusal(
      caller.admin.products.create({
        fields: fields({
          sku: 'NEW',
          colors: [{ name: 'Teal', images: ['https://cdn.example/listed.jpg'] }],
        }),
      }),
    );
    expect(at(issues, 'fields.colors.0.images')).toBe(
      'Teal: add photos to the product first, then assign them to a colour',
    );
  });

  it("a photo removed or moved to another URL leaves its colours with it, without touching the product's version", async () => {
    const p = await caller.admin.products.create({ fields: fields({ colors: ['Teal', 'Maroon'] }) });
    await addPhoto(p.id, 'm-a', '/media/uploads/a.webp');
    await addPhoto(p.id, 'm-b', '/media/uploads/b.webp');
    const saved = await caller.admin.products.update({
      id: p.id,
      expectedUpdatedAt: p.updatedAt,
      fields: fields({
        colors: [
          { name: 'Teal', images: ['/media/uploads/a.webp', '/media/uploads/b.webp'] },
          { name: 'Maroon', images: ['/media/uploads/b.webp'] },
        ],
      }),
    });
    await caller.admin.media.update({ id: 'm-a', url: 'https://cdn.example/a.jpg' });
    await caller.admin.media.remove({ id: 'm-b' });
    const after = await caller.admin.products.byId({ id: p.id });
    expect(after.colors.map((c) => c.images)).toEqual([['https://cdn.example/a.jpg'], []]);
    expect(after.updatedAt).toBe(saved.updatedAt);
  });

  it.each([
    [
      '50 colours',
      { colors: Array.from({ length: 50 }, (_, i) => ({ name: `Shade ${i}` })) },
      'fields.colors',
      'At most 20 colours',
    ],
    [
      'duplicate names in any case or spacing',
      { colors: [{ name: 'Teal' }, { name: ' teal ' }] },
      'fields.colors.1.name',
      '"teal" is the same colour as "Teal"',
    ],
    [
      'a negative colour price',
      { colors: [{ name: 'Teal', price: '-1' }] },
      'fields.colors.0.price',
      'Enter a price of 0 or more, like 49.99',
    ],
    [
      'stock of a colour the product does not have',
      { colors: [{ name: 'Teal' }], colourStock: { Mint: { M: 1 } } },
      'fields.colourStock.Mint',
      'Stock for Mint, a colour this product does not have',
    ],
    [
      'a fraction of a unit for a colour',
      { colors: [{ name: 'Teal' }], colourStock: { Teal: { M: 1.5 } } },
      'fields.colourStock.Teal.M',
      'Whole numbers only',
    ],
  ])('refuses %s, at the field', async (_name, over, path, message) => {
    const { code, issues } = await refusal(caller.admin.products.create({ fields: fields(over) }));
    expect(code).toBe('BAD_REQUEST');
    expect(at(issues, path)).toBe(message);
  });

  it('the shared rules: at most 20 colours, a name once in any spelling, a price of 0 or more', () => {
    const parse = (colors: ProductFieldsInput['colors']) => productFields.safeParse(fields({ colors }));
    expect(parse(Array.from({ length: 20 }, (_, i) => ({ name: `Shade ${i}` }))).success).toBe(true);
    expect(parse(Array.from({ length: 21 }, (_, i) => ({ name: `Shade ${i}` }))).success).toBe(false);
    expect(parse([{ name: 'Sea  Green' }, { name: 'sea green' }]).success).toBe(false);
    expect(parse([{ name: 'Teal', price: '0' }]).success).toBe(true);
    expect(parse([{ name: 'Teal', price: '-0.01' }]).success).toBe(false);
    // A plain list (today's files) still drops a repeated name silently.
    const plain = productFields.parse(fields({ colors: ['Teal', ' teal '] }));
    expect(plain.colors.map((c) => c.name)).toEqual(['Teal']);
  });

  it('records colour changes one by one in the history: added, removed, renamed, price, photos, stock', async () => {
    const p = await caller.admin.products.create({
      fields: fields({
        colors: [{ name: 'Teal', price: '' }, { name: 'Maroon' }],
        colourStock: { Maroon: { M: 3 } },
        stock: { S: 2 },
      }),
    });
    // Stored under a name of its own; the history says the file the owner uploaded.
    await addPhoto(p.id, 'm1', '/media/uploads/c83e88aa-1200.webp', 'front.jpg');
    await caller.admin.products.update({
      id: p.id,
      expectedUpdatedAt: p.updatedAt,
      fields: fields({
        colors: [
          { name: 'Sea Green', price: '95.00', images: ['/media/uploads/c83e88aa-1200.webp'] },
          { name: 'Mint', hex: '#98ff98' },
        ],
        colourStock: { 'Sea Green': { M: 1 } },
        stock: { S: 2 },
      }),
    });
    const [latest] = await caller.admin.products.history({ id: p.id });
    expect(latest?.changes).toEqual([
      { field: 'colour renamed', from: 'Teal', to: 'Sea Green' },
      { field: 'colour renamed', from: 'Maroon', to: 'Mint' },
      { field: 'colour Sea Green price', from: 'product price', to: '95.00' },
      { field: 'colour Sea Green photos', from: 'all photos', to: 'front.jpg' },
      { field: 'colour Mint swatch', from: 'none', to: '#98ff98' },
      { field: 'stock Mint / M', from: 3, to: 'not tracked' },
      { field: 'stock Sea Green / M', from: 'not tracked', to: 1 },
    ]);

    const before = await caller.admin.products.byId({ id: p.id });
    await caller.admin.products.update({
      id: p.id,
      expectedUpdatedAt: before.updatedAt,
      fields: fields({
        colors: [
          { name: 'Mint', hex: '#98ff98' },
          { name: 'Maroon', price: '80.00' },
        ],
        stock: { S: 2 },
      }),
    });
    const [next] = await caller.admin.products.history({ id: p.id });
    expect(next?.changes).toEqual([
      { field: 'colour removed', from: 'Sea Green', to: null },
      { field: 'colour added', from: null, to: 'Maroon (price 80.00)' },
      { field: 'stock Sea Green / M', from: 1, to: 'not tracked' },
    ]);
  });
});

describe('field errors over HTTP', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await store.cleanup();
  });

  it('name the full path of a refused field inside the input, beside the flattened ones', async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    app = await buildTestApp(store);
    const cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.products.create',
      headers: { 'content-type': 'application/json', cookie },
      payload: JSON.stringify({
        fields: fields({ colors: [{ name: 'Teal' }, { name: ' teal ' }], colourStock: { Teal: { M: -1 } } }),
      }),
    });
    expect(res.statusCode).toBe(400);
    const zodError = (
      res.json() as {
        error: {
          data: { zodError: { fieldErrors: Record<string, string[]>; paths: Record<string, string> } };
        };
      }
    ).error.data.zodError;
    expect(zodError.fieldErrors.fields?.length).toBeGreaterThan(0);
    expect(zodError.paths).toEqual({
      'fields.colors.1.name': '"teal" is the same colour as "Teal"',
      'fields.colourStock.Teal.M': 'Stock cannot be negative',
    });

    // The server's own check (colour photos) answers the same way.
    const photo = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.products.create',
      headers: { 'content-type': 'application/json', cookie },
      payload: JSON.stringify({
        fields: fields({ colors: [{ name: 'Teal', images: ['/media/uploads/x.webp'] }] }),
      }),
    });
    expect(photo.statusCode).toBe(400);
    expect(
      (photo.json() as { error: { data: { zodError: { paths: unknown } } } }).error.data.zodError.paths,
    ).toEqual({
      'fields.colors.0.images': 'Teal: add photos to the product first, then assign them to a colour',
    });
  });
});
