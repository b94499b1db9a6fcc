import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isKeptOutOfResponseCaches } from '../core/uncacheable-requests.js';
import { type RevisionReader, settledRevision } from '../db/store-revision.js';
import { isClientRoute } from '../shared/routes.js';
import type { ServerQuery } from '../shared/ssr-contract.js';
import type { PageShell } from './page-shell.js';
import { cachedPayload, type ResponseCache } from './response-cache.js';
import type { PageHead } from './seo.js';
import { loadRenderer, pageSearch, storefrontHtml } from './storefront-page.js';

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'NOT_FOUND';
}

/** The cache key every unknown address shares: no real path contains a NUL. */
const NOT_FOUND_KEY = '\u0000not-found';

/** Paths the client never renders: an unknown one there is a plain 404, never the app's HTML. */
const NON_PAGE_PREFIXES = ['/api/', '/media/', '/assets/'];

/**
 * Serves the built client: hashed assets cached for a year (and precompressed copies when the browser
 * accepts them), index.html never cached, the app for every client route (200) and for anything else the
 * app with status 404, so crawlers see a real 404 while people still get the 404 page.
 */
export async function registerSpa(
  app: FastifyInstance,
  opts: {
    clientDir: string | null;
    /** The page shell (readPageShell); null serves the API only. */
    shell: PageShell | null;
    /** The page's head; `search` holds only the parameters the page reads (pageSearch). */
    head?: (pathname: string, search: string) => Promise<PageHead | null>;
    /** Where the server bundle of the client lives (dist/ssr); pages are rendered there when it exists. */
    ssrDir?: string | null;
    query?: (req: FastifyRequest) => ServerQuery;
    /** Whole pages are kept per storefront revision, like the public API answers. */
    cache?: { store: ResponseCache; revision: RevisionReader };
  },
): Promise<void> {
  const indexHtml = opts.shell?.html ?? null;
  const render = indexHtml ? await loadRenderer(opts.ssrDir ?? null) : null;
  const noQuery: ServerQuery = async () => undefined;

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
    // The same page for everyone at one revision: built once, then sent from memory (ETag, br/gzip). Only
    // the parameters a page reads take part, so tracking tags (utm_*, fbclid) share the page. Every unknown
    // address shows the same 404 page, so they share one entry (and cannot fill the cache).
    const search = known
      ? pageSearch(pathname, req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '')
      : '';
    const key = !known ? NOT_FOUND_KEY : search ? `${pathname}?${search}` : pathname;
    const cache = opts.cache && key.length <= 2000 ? opts.cache : null;
    const revision = cache ? await settledRevision(cache.revision) : null;
    let release: (() => void) | undefined;
    if (cache && revision !== null) {
      const found = await cache.store.lookup(key, revision);
      if (found.hit) return reply.send(cachedPayload(req, reply, found.hit));
      release = found.release;
    }
    try {
      const head = opts.head ? await opts.head(pathname, search) : null;
      // A query refused while rendering (this address over its budget, the store busy) leaves a hole in the
      // page: it is still sent, but never kept, or one refused visitor would shape the page for everyone.
      let incomplete = false;
      const query = opts.query ? opts.query(req) : noQuery;
      const html = await storefrontHtml({
        template: indexHtml,
        pathname,
        search,
        head,
        render,
        notFound: !known,
        boot: opts.shell?.boot ?? null,
        query: async (path, input) => {
          try {
            return await query(path, input);
          } catch (error) {
            if (!isNotFound(error)) incomplete = true;
            throw error;
          }
        },
        log: req.log,
      });
      const status = known ? (head?.status ?? 200) : 404;
      // A query whose answer is not for this revision (InnerContext.keepOutOfResponseCaches) keeps the page
      // out of the cache the same way.
      if (cache && revision !== null && !incomplete && !isKeptOutOfResponseCaches(req)) {
        const entry = cache.store.set(key, revision, {
          status,
          contentType: 'text/html; charset=utf-8',
          body: html,
        });
        return reply.send(cachedPayload(req, reply, entry));
      }
      return reply
        .code(status)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html);
    } finally {
      release?.();
    }
  });
}
