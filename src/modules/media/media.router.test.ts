import { TRPCError } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { createCallerFactory } from '../../trpc/init.js';
import { adminMediaRouter } from '../../trpc/routers/media.router.js';
import { removeStoredFiles, storageKeysForProduct } from './media.service.js';

const createCaller = createCallerFactory(adminMediaRouter);
const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

describe('admin.media procedures', () => {
  let store: TestStore;
  const caller = () => createCaller(store.context({ admin }));
  const add = (productId: string, url: string, extra: Record<string, unknown> = {}) =>
    caller().addUrl({ productId, url, fileName: url.split('/').pop() ?? 'x', mediaType: 'image', ...extra });

  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'p1' }, { id: 'p2' }]);
  });
  afterEach(async () => {
    await store.cleanup();
  });

  it('refuses every procedure without an admin', async () => {
    const anonymous = createCaller(store.context());
    const calls: Promise<unknown>[] = [
      anonymous.list({ productId: 'p1' }),
      anonymous.addUrl({
        productId: 'p1',
        url: 'https://cdn.example/a.jpg',
        fileName: 'a.jpg',
        mediaType: 'image',
      }),
      anonymous.update({ id: 'm1', altText: 'x' }),
      anonymous.remove({ id: 'm1' }),
      anonymous.reorder({ productId: 'p1', ids: [] }),
    ];
    for (const call of calls) await expect(call).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await store.handle.db.selectFrom('media').selectAll().execute()).toEqual([]);
  });

  it('adds media by URL in order, with alt text stored as null when blank', async () => {
    const a = await add('p1', 'https://cdn.example/a.jpg', { altText: '   ' });
    const b = await add('p1', '/media/demo/b.svg', { altText: ' Back view ', mediaType: 'image' });
    const c = await add('p1', 'http://cdn.example/guide.pdf', { mediaType: 'pdf', fileName: 'guide.pdf' });
    expect([a.altText, b.altText]).toEqual([null, 'Back view']);
    expect([a.displayOrder, b.displayOrder, c.displayOrder]).toEqual([0, 1, 2]);
    expect(a.uploaded).toBe(false);
    const list = await caller().list({ productId: 'p1' });
    expect(list.items.map((m) => m.url)).toEqual([
      'https://cdn.example/a.jpg',
      '/media/demo/b.svg',
      'http://cdn.example/guide.pdf',
    ]);
    expect(list.max).toBe(20);
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:image/png;base64,AAAA'],
    ['ftp://cdn.example/a.jpg'],
    ['/admin/secret'],
    ['/media/../session.key'],
    ['/media/%2e%2e/store.db'],
    ['//evil.example/a.jpg'],
    ['not a url'],
    [''],
  ])("refuses the URL %j with 'Please enter a valid URL'", async (url) => {
    const error = await add('p1', url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    const cause = (error as TRPCError).cause as { issues?: { message: string; path: PropertyKey[] }[] };
    expect(cause.issues?.find((i) => i.path[0] === 'url')?.message).toBe('Please enter a valid URL');
  });

  it("refuses a blank file name with 'Please enter a file name' and keeps only a plain name", async () => {
    const error = await add('p1', 'https://cdn.example/a.jpg', { fileName: '  ' }).catch((e: unknown) => e);
    const cause = (error as TRPCError).cause as { issues?: { message: string }[] };
    expect(cause.issues?.[0]?.message).toBe('Please enter a file name');
    const item = await add('p1', 'https://cdn.example/a.jpg', { fileName: '../../etc/passwd\u0000' });
    expect(item.fileName).toBe('passwd');
  });

  it("stops at 20 media per product with 'Maximum 20 media items allowed per product', even when racing", async () => {
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => add('p1', `https://cdn.example/${i}.jpg`).catch(() => null)),
    );
    expect((await caller().list({ productId: 'p1' })).items).toHaveLength(20);
    await expect(add('p1', 'https://cdn.example/21.jpg')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Maximum 20 media items allowed per product',
    });
    await expect(add('nope', 'https://cdn.example/x.jpg')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('updates URL, file name and alt text', async () => {
    const a = await add('p1', 'https://cdn.example/a.jpg', { altText: 'Front' });
    const updated = await caller().update({
      id: a.id,
      url: '/media/x/a.webp',
      fileName: 'front.webp',
      altText: '',
    });
    expect(updated).toMatchObject({ url: '/media/x/a.webp', fileName: 'front.webp', altText: null });
    const same = await caller().update({ id: a.id, altText: 'Front view' });
    expect(same).toMatchObject({ url: '/media/x/a.webp', altText: 'Front view' });
    await expect(caller().update({ id: a.id, url: 'javascript:x' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(caller().update({ id: 'nope', altText: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reorders in one go and refuses ids of another product, duplicates and partial lists', async () => {
    const [a, b, c] = [
      await add('p1', 'https://cdn.example/a.jpg'),
      await add('p1', 'https://cdn.example/b.jpg'),
      await add('p1', 'https://cdn.example/c.jpg'),
    ];
    const other = await add('p2', 'https://cdn.example/z.jpg');
    if (!a || !b || !c) throw new Error('setup');
    const result = await caller().reorder({ productId: 'p1', ids: [c.id, a.id, b.id] });
    expect(result.items.map((m) => [m.id, m.displayOrder])).toEqual([
      [c.id, 0],
      [a.id, 1],
      [b.id, 2],
    ]);
    for (const ids of [
      [c.id, a.id, other.id],
      [c.id, a.id, a.id],
      [c.id, a.id],
    ]) {
      await expect(caller().reorder({ productId: 'p1', ids })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    expect((await caller().list({ productId: 'p1' })).items.map((m) => m.id)).toEqual([c.id, a.id, b.id]);
    expect((await caller().list({ productId: 'p2' })).items.map((m) => m.displayOrder)).toEqual([0]);
  });

  it('removes a row, closes the gap in the order, then deletes its uploaded files', async () => {
    await store.storage.put('media/uploads/abc-320.webp', Buffer.from('a'));
    await store.storage.put('media/uploads/abc-640.webp', Buffer.from('b'));
    const now = '2026-11-22T10:00:00.000Z';
    await store.handle.db
      .insertInto('media')
      .values({
        id: 'up1',
        product_id: 'p1',
        url: '/media/uploads/abc-640.webp',
        file_name: 'photo.jpg',
        media_type: 'image',
        display_order: 0,
        alt_text: null,
        created_at: now,
        updated_at: now,
        storage_key: 'media/uploads/abc-640.webp',
        content_type: 'image/webp',
        byte_size: 1,
        width: 640,
        height: 480,
        variants: JSON.stringify([
          {
            url: '/media/uploads/abc-320.webp',
            width: 320,
            format: 'webp',
            storageKey: 'media/uploads/abc-320.webp',
          },
          {
            url: '/media/uploads/abc-640.webp',
            width: 640,
            format: 'webp',
            storageKey: 'media/uploads/abc-640.webp',
          },
        ]),
      })
      .execute();
    const b = await add('p1', 'https://cdn.example/b.jpg');
    expect(await storageKeysForProduct(store.handle.db, 'p1')).toEqual([
      'media/uploads/abc-640.webp',
      'media/uploads/abc-320.webp',
    ]);
    expect(await caller().remove({ id: 'up1' })).toEqual({ id: 'up1', productId: 'p1' });
    expect(await store.storage.exists('media/uploads/abc-320.webp')).toBe(false);
    expect(await store.storage.exists('media/uploads/abc-640.webp')).toBe(false);
    expect((await caller().list({ productId: 'p1' })).items.map((m) => [m.id, m.displayOrder])).toEqual([
      [b.id, 0],
    ]);
    await expect(caller().remove({ id: 'up1' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('removeStoredFiles only ever deletes files under media/uploads/', async () => {
    await store.storage.put('media/demo/keep.svg', Buffer.from('<svg/>'));
    await store.storage.put('media/uploads/go.webp', Buffer.from('x'));
    await removeStoredFiles(store.storage, [
      'media/demo/keep.svg',
      'media/uploads/go.webp',
      'media/uploads/gone.webp',
    ]);
    expect(await store.storage.exists('media/demo/keep.svg')).toBe(true);
    expect(await store.storage.exists('media/uploads/go.webp')).toBe(false);
  });
});
