import { expect, test } from './support/test';

/** A picture as light as a picture can be: the worst an owner can put behind the banner's text. */
const WHITE_PICTURE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="544"><rect width="100%" height="100%" fill="#fff"/></svg>';

for (const width of [390, 1280]) {
  test(`the banner's text keeps 4.5:1 over a pure white picture at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Featured' });
    const picture = banner.locator('img');
    const src = await picture.getAttribute('src');
    if (!src) throw new Error('The demo store has no banner picture');
    // The owner's picture is swapped for a white one on the way in; the store's settings stay as they are.
    await page.route(
      (url) => url.pathname === new URL(src, page.url()).pathname,
      (route) => route.fulfill({ contentType: 'image/svg+xml', body: WHITE_PICTURE }),
    );
    await page.reload();
    await expect(picture).toHaveJSProperty('complete', true);
    expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    const texts = banner.locator('p');
    expect(await texts.count()).toBeGreaterThanOrEqual(2);
    // What lies behind the text, with the text made invisible: its lightest pixel is the worst case.
    await texts.evaluateAll((els) => {
      for (const el of els) (el as HTMLElement).style.setProperty('color', 'transparent', 'important');
    });
    const shots: Array<{ name: string; png: string; color: string }> = [];
    for (const text of await texts.all()) {
      const box = await text.boundingBox();
      if (!box) throw new Error('A banner text has no box');
      const png = (await page.screenshot({ clip: box })).toString('base64');
      await text.evaluate((el) => el.style.removeProperty('color'));
      shots.push({
        name: (await text.textContent()) ?? '',
        png,
        color: await text.evaluate((el) => getComputedStyle(el).color),
      });
    }

    const ratios = await page.evaluate(async (all) => {
      const canvas = document.createElement('canvas');
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      if (!ctx) throw new Error('no 2d canvas');
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      const luminance = (r: number, g: number, b: number) =>
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      const out: Array<{ name: string; ratio: number }> = [];
      for (const { name, png, color } of all) {
        // Decoded from bytes, not fetched from a data: URL, which the store's CSP rightly refuses.
        const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        canvas.width = bitmap.width;
        canvas.height = bitmap.height;
        ctx.drawImage(bitmap, 0, 0);
        const px = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
        let lightest = [0, 0, 0];
        let most = -1;
        for (let i = 0; i < px.length; i += 4) {
          const l = luminance(px[i] ?? 0, px[i + 1] ?? 0, px[i + 2] ?? 0);
          if (l > most) {
            most = l;
            lightest = [px[i] ?? 0, px[i + 1] ?? 0, px[i + 2] ?? 0];
          }
        }
        // The text's colour as painted over that pixel (a translucent colour blends with it).
        canvas.width = 1;
        canvas.height = 1;
        ctx.fillStyle = `rgb(${lightest.join(' ')})`;
        ctx.fillRect(0, 0, 1, 1);
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
        const [r = 0, g = 0, b = 0] = ctx.getImageData(0, 0, 1, 1).data;
        const text = luminance(r, g, b);
        const ratio = (Math.max(text, most) + 0.05) / (Math.min(text, most) + 0.05);
        out.push({ name, ratio: Math.round(ratio * 100) / 100 });
      }
      return out;
    }, shots);

    expect(ratios).toHaveLength(shots.length);
    expect(
      ratios.filter((r) => r.ratio < 4.5),
      'banner texts under 4.5:1 over a white picture',
    ).toEqual([]);
  });
}
