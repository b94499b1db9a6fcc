import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

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
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root,
      prefix: '/media/',
      decorateReply: false,
      wildcard: true,
      index: false,
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = path.resolve(filePath).startsWith(uploads);
        res.header(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
        );
        res.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        res.header('x-content-type-options', 'nosniff');
        if (!INLINE_IMAGE.has(path.extname(filePath).toLowerCase()))
          res.header('content-disposition', 'attachment');
      },
    });
  });
}
