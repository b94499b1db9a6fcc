import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { keepOutOfResponseCaches } from '../core/uncacheable-requests.js';
import { ResponseCache } from './response-cache.js';
import { registerSpa } from './spa.js';

const template = '<html><head><title>Store</title></head><body><div id="root"></div></body></html>';

/** A stand-in for the built server renderer: asks for the catalogue and shows what it got. */
const RENDERER = `export async function renderPage(pathname, search, query) {
  let shown = 'skeleton';
  try { shown = String((await query('catalogue.search', {})).items.length) + ' products'; } catch {}
  return { html: '<main>' + shown + '</main>', state: { mutations: [], queries: [] } };
}`;

describe('pages rendered while a query was refused or answered for an older revision', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('are sent but never cached: the next visitor gets the whole page', async () => {
    const ssrDir = mkdtempSync(path.join(tmpdir(), 'store-ssr-'));
    dirs.push(ssrDir);
    writeFileSync(path.join(ssrDir, 'entry-server.js'), RENDERER);
    let refuse = true;
    const app = Fastify();
    await registerSpa(app, {
      clientDir: null,
      shell: { html: template, styleHashes: [], boot: null, scriptHashes: [] },
      ssrDir,
      query: () => async () => {
        // The first visitor is over their budget; the store itself is fine.
        if (refuse) {
          refuse = false;
          throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests' });
        }
        return { items: [1, 2, 3] };
      },
      cache: { store: new ResponseCache({ maxEntries: 10, maxBytes: 1_000_000 }), revision: () => 'r1' },
    });
    const first = await app.inject({ url: '/' });
    expect(first.body).toContain('<main>skeleton</main>');
    const second = await app.inject({ url: '/' });
    expect(second.body).toContain('<main>3 products</main>');
    // The whole page is the one kept.
    const third = await app.inject({ url: '/' });
    expect(third.body).toContain('<main>3 products</main>');
    await app.close();
  });

  it('are sent but never cached when an answer was not for this revision', async () => {
    const ssrDir = mkdtempSync(path.join(tmpdir(), 'store-ssr-'));
    dirs.push(ssrDir);
    writeFileSync(path.join(ssrDir, 'entry-server.js'), RENDERER);
    let older = true;
    const app = Fastify();
    await registerSpa(app, {
      clientDir: null,
      shell: { html: template, styleHashes: [], boot: null, scriptHashes: [] },
      ssrDir,
      query: (req) => async () => {
        // The first visitor's answer came from an older facet snapshot while a newer one loaded.
        if (older) {
          older = false;
          keepOutOfResponseCaches(req);
          return { items: [1] };
        }
        return { items: [1, 2, 3] };
      },
      cache: { store: new ResponseCache({ maxEntries: 10, maxBytes: 1_000_000 }), revision: () => 'r2' },
    });
    expect((await app.inject({ url: '/' })).body).toContain('<main>1 products</main>');
    expect((await app.inject({ url: '/' })).body).toContain('<main>3 products</main>');
    expect((await app.inject({ url: '/' })).body).toContain('<main>3 products</main>');
    await app.close();
  });
});
