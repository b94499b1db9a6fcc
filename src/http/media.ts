import { mkdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { cachedPayload, ResponseCache } from './response-cache.js';

/** Extensions a browser may show inline; anything else is sent as a download. */
const INLINE_IMAGE = new Set(['.jpg', '.jpeg', '.png', '.gif', '.webp', '.avif', '.svg']);

/**
 * Serves stored media under /media/. Files can be anything an operator uploaded, so each answer carries a
 * sandboxing CSP (an SVG or HTML file opened directly can run no script and reach nothing) and nosniff.
 * Uploaded files have unique generated names that never change content, so they are cached for a year;
 * documents and videos are sent as attachments, never rendered as a page of this site.
 */
export async function registerMedia(app: FastifyInstance, opts: { mediaRoot: string }): Promise<void> {
  mkdirSync(opts.mediaRoot, { recursive: true });
  const root = path.resolve(opts.mediaRoot);
  const uploads = `${path.join(root, 'uploads')}${path.sep}`;
  const headersFor = (filePath: string): Record<string, string> => ({
    'cache-control': path.resolve(filePath).startsWith(uploads)
      ? 'public, max-age=31536000, immutable'
      : 'public, max-age=86400',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'x-content-type-options': 'nosniff',
    ...(INLINE_IMAGE.has(path.extname(filePath).toLowerCase())
      ? {}
      : { 'content-disposition': 'attachment' }),
  });
  // SVG is text and often the page's largest image (the demo's drawings, the banner): sent compressed, each
  // file compressed once per version (size and time) and kept in a small bounded cache.
  const svgCache = new ResponseCache({ maxEntries: 500, maxBytes: 8 * 1024 * 1024 });
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      if (req.method !== 'GET' || !/\.svg$/i.test(req.url.split('?')[0] ?? '')) return;
      const encodings = String(req.headers['accept-encoding'] ?? '');
      if (!/\b(br|gzip)\b/.test(encodings)) return;
      let relative: string;
      try {
        relative = decodeURIComponent((req.url.split('?')[0] ?? '').slice('/media/'.length));
      } catch {
        return;
      }
      const file = path.resolve(root, relative);
      if (!file.startsWith(`${root}${path.sep}`) || relative.split('/').some((p) => p.startsWith('.')))
        return;
      const info = await stat(file).catch(() => null);
      if (!info?.isFile() || info.size > 2 * 1024 * 1024) return;
      const version = `${info.size}:${info.mtimeMs}`;
      const entry =
        svgCache.get(file, version) ??
        svgCache.set(file, version, {
          status: 200,
          contentType: 'image/svg+xml',
          body: await readFile(file),
        });
      const body = cachedPayload(req, reply, entry);
      return reply.headers(headersFor(file)).send(body);
    });
    await scope.register(fastifyStatic, {
      root,
      prefix: '/media/',
      decorateReply: false,
      wildcard: true,
      index: false,
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders(res, filePath) {
        for (const [name, value] of Object.entries(headersFor(filePath))) res.header(name, value);
      },
    });
  });
}
