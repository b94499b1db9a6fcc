import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { responsiveImage } from '../../shared/responsive-image.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

const variant = (width: number, format: 'webp' | 'avif') => ({
  url: `/media/uploads/abc-${width}.${format}`,
  width,
  format,
  storageKey: `media/uploads/abc-${width}.${format}`,
});

describe('storefront images from uploaded media', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'p1' }]);
    const now = '2026-11-22T10:00:00.000Z';
    const row = {
      product_id: 'p1',
      media_type: 'image' as const,
      alt_text: 'Front',
      created_at: now,
      updated_at: now,
    };
    await store.handle.db
      .insertInto('media')
      .values([
        {
          ...row,
          id: 'up',
          url: '/media/uploads/abc-640.webp',
          file_name: 'front.jpg',
          display_order: 0,
          storage_key: 'media/uploads/abc-640.webp',
          content_type: 'image/webp',
          byte_size: 100,
          width: 640,
          height: 800,
          variants: JSON.stringify([variant(320, 'webp'), variant(640, 'webp'), variant(320, 'avif')]),
        },
        {
          ...row,
          id: 'svg',
          url: '/media/demo/back.svg',
          file_name: 'back.svg',
          display_order: 1,
          alt_text: null,
          variants: '[]',
        },
      ])
      .execute();
  });
  afterEach(async () => {
    await store.cleanup();
  });

  it('gives cards srcset, width and height for uploaded images', async () => {
    const [card] = (await store.caller().catalogue.search({})).items;
    expect(card?.image).toEqual({
      url: '/media/uploads/abc-640.webp',
      alt: 'Front',
      srcSet: '/media/uploads/abc-320.webp 320w, /media/uploads/abc-640.webp 640w',
      width: 640,
      height: 800,
    });
  });

  it('gives the product gallery srcset for uploaded images and leaves SVG media as they were', async () => {
    const p = await store.caller().catalogue.byId({ id: 'p1' });
    const [uploaded, svg] = p.media;
    expect(responsiveImage(uploaded)).toEqual({
      srcSet: '/media/uploads/abc-320.webp 320w, /media/uploads/abc-640.webp 640w',
      width: 640,
      height: 800,
    });
    expect(svg).toEqual({
      id: 'svg',
      url: '/media/demo/back.svg',
      fileName: 'back.svg',
      mediaType: 'image',
      altText: null,
      displayOrder: 1,
    });
    expect(responsiveImage(p.image)?.srcSet).toContain('320w');
  });
});
