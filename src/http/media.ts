import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeFor } from '../storage/content-types.js';
import { type FileStorage, StoredFileMissing } from '../storage/file-storage.js';
import { isSafeKey, PUBLIC_MEDIA_PREFIX, UPLOADS_PREFIX } from '../storage/storage-keys.js';
import { notModified, parseRange, rangeStillValid } from './byte-range.js';
import { cachedPayload, ResponseCache } from './response-cache.js';

/** Extensions a browser may show inline; anything else is sent as a download. */
const INLINE_IMAGE = new Set(['.jpg', '.jpeg', '.png', '.gif', '.webp', '.avif', '.svg']);
/**
 * Files up to this size are read whole before the answer starts, so a slow client never holds one of the
 * storage's connections (an S3 socket) while it reads; product images are well below it.
 */
const READ_WHOLE_UP_TO = 256 * 1024;
/** SVG drawings up to this size are compressed and kept compressed (see below). */
const COMPRESS_SVG_UP_TO = 2 * 1024 * 1024;

function headersFor(key: string): Record<string, string> {
  return {
    // Uploads have unique generated names whose bytes never change; other media (the demo's) may.
    'cache-control': key.startsWith(UPLOADS_PREFIX)
      ? 'public, max-age=31536000, immutable'
      : 'public, max-age=86400',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'x-content-type-options': 'nosniff',
    ...(INLINE_IMAGE.has(path.posix.extname(key).toLowerCase())
      ? {}
      : { 'content-disposition': 'attachment' }),
  };
}

/** The storage key a /media/ URL names, or null for anything that is not a valid key (traversal and such). */
function keyOf(req: FastifyRequest): string | null {
  const rest = (req.params as { '*'?: string })['*'] ?? '';
  const key = `${PUBLIC_MEDIA_PREFIX}${rest}`;
  return isSafeKey(key) ? key : null;
}

/**
 * Serves stored media under /media/ from whichever storage holds them, local folder or S3 bucket, the same
 * way (decision 0016: streamed through the store, not redirected to the bucket). Files can be anything an
 * operator uploaded, so each answer carries a sandboxing CSP (an SVG or HTML file opened directly can run no
 * script and reach nothing) and nosniff; documents and videos are sent as attachments, never rendered as a
 * page of this site. ETag and Last-Modified give 304s; one byte range per request gives 206 (video, PDF).
 */
export async function registerMedia(app: FastifyInstance, opts: { storage: FileStorage }): Promise<void> {
  const { storage } = opts;
  // SVG is text and often the page's largest image (the demo's drawings, the banner): sent compressed, each
  // file compressed once per version and kept in a small bounded cache.
  const svgCache = new ResponseCache({ maxEntries: 500, maxBytes: 8 * 1024 * 1024 });

  const send = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = keyOf(req);
    const info = key === null ? null : await storage.stat(key);
    if (key === null || info === null) return reply.callNotFound();
    const head = req.method === 'HEAD';
    const isSvg = path.posix.extname(key).toLowerCase() === '.svg';

    if (isSvg && !head && req.headers.range === undefined && info.size <= COMPRESS_SVG_UP_TO) {
      const entry =
        svgCache.get(key, info.etag) ??
        svgCache.set(key, info.etag, {
          status: 200,
          contentType: 'image/svg+xml',
          body: await storage.read(key),
        });
      const body = cachedPayload(req, reply, entry);
      return reply.headers(headersFor(key)).send(body);
    }

    const validators = {
      ...headersFor(key),
      etag: info.etag,
      'last-modified': info.lastModified.toUTCString(),
      'accept-ranges': 'bytes',
      ...(isSvg ? { vary: 'accept-encoding' } : {}),
    };
    if (notModified(req.headers, info)) return reply.code(304).headers(validators).send();

    const ifRange = req.headers['if-range'];
    const asked = rangeStillValid(typeof ifRange === 'string' ? ifRange : undefined, info)
      ? parseRange(req.headers.range, info.size)
      : ({ kind: 'whole' } as const);
    if (asked.kind === 'unsatisfiable') {
      return reply.code(416).headers(validators).header('content-range', `bytes */${info.size}`).send();
    }
    const range = asked.kind === 'part' ? { start: asked.start, end: asked.end } : undefined;
    let body: Buffer | Readable | undefined;
    try {
      if (!head)
        body =
          !range && info.size <= READ_WHOLE_UP_TO
            ? await storage.read(key)
            : await storage.stream(key, range);
    } catch (error) {
      if (error instanceof StoredFileMissing) return reply.callNotFound(); // removed since the stat
      throw error;
    }
    reply
      .headers(validators)
      .type(contentTypeFor(key))
      .header('content-length', String(range ? range.end - range.start + 1 : info.size));
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
    return reply.send(body);
  };

  await app.register(async (scope) => {
    scope.route({ method: ['GET', 'HEAD'], url: '/media/*', handler: send });
  });
}
