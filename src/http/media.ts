import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves stored media under /media/. Files can be anything an operator uploaded, so each answer carries a
 * sandboxing CSP: an SVG or HTML file opened directly can run no script and reach nothing.
 */
export async function registerMedia(app: FastifyInstance, opts: { mediaRoot: string }): Promise<void> {
  mkdirSync(opts.mediaRoot, { recursive: true });
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: path.resolve(opts.mediaRoot),
      prefix: '/media/',
      decorateReply: false,
      wildcard: true,
      index: false,
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders(res) {
        res.header('cache-control', 'public, max-age=86400');
        res.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        res.header('x-content-type-options', 'nosniff');
      },
    });
  });
}
