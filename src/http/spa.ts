import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isClientRoute } from '../shared/routes.js';
import { injectHead, type PageHead } from './seo.js';

/** Paths the client never renders: an unknown one there is a plain 404, never the app's HTML. */
const NON_PAGE_PREFIXES = ['/api/', '/media/', '/assets/'];

/**
 * Serves the built client: hashed assets cached for a year (and precompressed copies when the browser
 * accepts them), index.html never cached, the app for every client route (200) and for anything else the
 * app with status 404, so crawlers see a real 404 while people still get the 404 page.
 */
export async function registerSpa(
  app: FastifyInstance,
  opts: { clientDir: string | null; head?: (pathname: string) => Promise<PageHead | null> },
): Promise<void> {
  const indexFile = opts.clientDir ? path.join(opts.clientDir, 'index.html') : null;
  const indexHtml = indexFile && existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;

  if (opts.clientDir && indexHtml) {
    await app.register(fastifyStatic, {
      root: path.resolve(opts.clientDir),
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      allowedPath: (pathname) => pathname !== '/index.html',
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const isPageRequest =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !NON_PAGE_PREFIXES.some((p) => pathname.startsWith(p));
    if (!isPageRequest || !indexHtml) {
      return reply.code(404).send({ error: 'Not Found', message: `${req.method} ${pathname} not found` });
    }
    const known = isClientRoute(pathname);
    const head = known && opts.head ? await opts.head(pathname) : null;
    return reply
      .code(known ? (head?.status ?? 200) : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(head ? injectHead(indexHtml, head) : indexHtml);
  });
}
