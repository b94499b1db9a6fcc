import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type CachedResponse = {
  status: number;
  contentType: string;
  etag: string;
  body: Buffer;
  /**
   * Compressed copies, made the first time a browser asks for that encoding (most only ever want br): at
   * first quickly, since most answers to new filters are asked once (brotli 5 cost 0.25 ms for a 12 kB
   * listing, 1 cost 0.07 ms for 19 % more bytes), and made again smaller when the answer is asked again.
   */
  encoded: { br?: Encoded; gzip?: Encoded };
  bytes: number;
};

type Encoded = { body: Buffer; smallest: boolean };

type Slot = { revision: string; response: CachedResponse };

/** Below this a compressed copy saves less than its headers cost. */
const COMPRESS_FROM_BYTES = 1024;

export type ResponseCacheLimits = {
  maxEntries: number;
  maxBytes: number;
  /**
   * Keep an answer only once its request has been asked twice (in any revision), or while others wait for
   * it: most answers to new filters are asked once, and keeping each of them cost more than computing it
   * (copied, hashed, and kept until pushed out, so the old generation filled with answers nobody asked
   * for again and the collector worked through them). The first request of a URL is remembered as a hash
   * among the last few thousand (ASKED_ONCE_PER_ENTRY × maxEntries).
   */
  admitWhenAskedTwice?: boolean;
};

type Flight = { done: Promise<void>; waiting: number };

/** How many once-asked requests are remembered per entry the cache may hold. */
const ASKED_ONCE_PER_ENTRY = 4;

/**
 * Whole responses of public, session-free answers, keyed by the exact request and valid for one storefront
 * revision. Bounded by entries and bytes (least recently used out first) so a crawler walking every filter
 * combination cannot grow the process. Compressed copies are made once, when an answer is stored.
 */
export class ResponseCache {
  private readonly slots = new Map<string, Slot>();
  private bytes = 0;
  /** Answers being computed now, per key and revision (see lookup). */
  private readonly flights = new Map<string, Flight>();
  /** Hashes of requests asked once and not kept (admitWhenAskedTwice), oldest first. */
  private readonly askedOnce = new Set<number>();

  constructor(private readonly limits: ResponseCacheLimits) {}

  /**
   * The cached answer, or the duty to compute it (call `release` when done, whatever happened). Identical
   * requests that arrive while the first is still being answered wait for it instead of each computing the
   * same answer (a cold cache under a burst: 200 shoppers landing at once). If the first one kept nothing
   * (it failed), each waiter answers for itself, as it would have without waiting.
   */
  async lookup(
    key: string,
    revision: string,
  ): Promise<{ hit: CachedResponse; release?: never } | { hit?: never; release: () => void }> {
    const hit = this.get(key, revision);
    if (hit) return { hit };
    const name = flightName(key, revision);
    const running = this.flights.get(name);
    if (!running) {
      let finish = () => {};
      const flight: Flight = {
        done: new Promise<void>((resolve) => {
          finish = resolve;
        }),
        waiting: 0,
      };
      this.flights.set(name, flight);
      return {
        release: () => {
          if (this.flights.get(name) === flight) this.flights.delete(name);
          finish();
        },
      };
    }
    running.waiting += 1;
    await running.done;
    const after = this.get(key, revision);
    return after ? { hit: after } : { release: () => {} };
  }

  get(key: string, revision: string): CachedResponse | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (slot.revision !== revision) {
      this.drop(key, slot);
      // It was worth keeping: its next answer is kept at once (admitWhenAskedTwice).
      if (this.limits.admitWhenAskedTwice) this.rememberAsked(fnv1a(key));
      return undefined;
    }
    // Map order is insertion order: re-inserting marks it most recently used.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.response;
  }

  set(
    key: string,
    revision: string,
    entry: { status: number; contentType: string; body: string | Buffer },
  ): CachedResponse {
    const body = typeof entry.body === 'string' ? Buffer.from(entry.body) : entry.body;
    const response: CachedResponse = {
      status: entry.status,
      contentType: entry.contentType,
      // From the content, not the revision: a restored backup may reuse a revision number.
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      body,
      encoded: {},
      // Counted with room for its compressed copies (text compresses to well under half).
      bytes: Math.ceil(body.length * 1.5) + key.length,
    };
    if (response.bytes > this.limits.maxBytes / 8) return response; // too big to be worth a slot
    if (!this.admits(key, revision)) return response;
    const old = this.slots.get(key);
    if (old) this.drop(key, old);
    this.slots.set(key, { revision, response });
    this.bytes += response.bytes;
    while (this.slots.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes) {
      const oldest = this.slots.entries().next().value;
      if (!oldest) break;
      this.drop(oldest[0], oldest[1]);
    }
    return response;
  }

  /** Whether an answer to `key` is worth a slot now (see ResponseCacheLimits.admitWhenAskedTwice). */
  private admits(key: string, revision: string): boolean {
    if (!this.limits.admitWhenAskedTwice || this.slots.has(key)) return true;
    if ((this.flights.get(flightName(key, revision))?.waiting ?? 0) > 0) return true;
    const hash = fnv1a(key);
    if (this.askedOnce.delete(hash)) return true;
    this.rememberAsked(hash);
    return false;
  }

  private rememberAsked(hash: number): void {
    this.askedOnce.add(hash);
    if (this.askedOnce.size > this.limits.maxEntries * ASKED_ONCE_PER_ENTRY) {
      const oldest = this.askedOnce.values().next().value;
      if (oldest !== undefined) this.askedOnce.delete(oldest);
    }
  }

  get size(): number {
    return this.slots.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.slots.clear();
    this.bytes = 0;
  }

  private drop(key: string, slot: Slot): void {
    this.slots.delete(key);
    this.bytes -= slot.response.bytes;
  }
}

function flightName(key: string, revision: string): string {
  return `${revision}\u0000${key}`;
}

/** 32-bit FNV-1a of the key's UTF-16 units: a collision only keeps an answer one request early. */
function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Compressed output that fits in one buffer of `chunkSize` comes back as a view of it: zlib's 16 kB
 * default made every answer hold 16 kB outside V8's heap (a listing compresses to 2-4 kB), which counts
 * toward V8's next full collection. Half the body holds any answer worth compressing (one that does not
 * fit is written on in more buffers and joined into one of its exact size); from 4 kB, so that it is a
 * buffer of its own and not a slice of Node's shared pool, which a kept answer would hold whole; at most
 * zlib's 16 kB, so that a large page holds no more than it did.
 */
const CHUNK_BYTES = { least: 4096, most: 16_384 };

function compress(body: Buffer, encoding: 'br' | 'gzip', smallest: boolean): Buffer {
  const chunkSize = Math.min(CHUNK_BYTES.most, Math.max(CHUNK_BYTES.least, Math.ceil(body.length / 2)));
  const out =
    encoding === 'br'
      ? brotliCompressSync(body, {
          chunkSize,
          params: {
            [constants.BROTLI_PARAM_QUALITY]: smallest ? 5 : 1,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : gzipSync(body, { chunkSize, level: smallest ? 6 : 1 });
  if (out.buffer.byteLength === out.length) return out;
  // Node 24 and later give back output that fits in a chunk as a view of a 64 kB block, whatever `chunkSize`
  // says: kept, a 2 kB listing would hold all of it. A buffer of its own, of its exact size (not from the
  // shared pool, which a kept answer would hold whole).
  const own = Buffer.allocUnsafeSlow(out.length);
  out.copy(own);
  return own;
}

function accepts(req: FastifyRequest, encoding: 'br' | 'gzip'): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  // Enough for real browsers; a q=0 opt-out is honoured.
  const match = new RegExp(`(?:^|,)\\s*${encoding}\\s*(?:;\\s*q=([0-9.]+))?`, 'i').exec(header);
  return !!match && (match[1] === undefined || Number(match[1]) > 0);
}

function matchesEtag(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sets the headers of a cached answer and returns the body to send: null for 304 when the browser already
 * has it, else the smallest encoding it accepts. The browser may keep it but must ask again each time
 * (no-cache), so an admin change shows at once.
 */
export function cachedPayload(
  req: FastifyRequest,
  reply: FastifyReply,
  response: CachedResponse,
): Buffer | null {
  reply.header('etag', response.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (matchesEtag(req, response.etag)) {
    reply.code(304);
    return null;
  }
  reply.code(response.status).type(response.contentType);
  if (response.body.length < COMPRESS_FROM_BYTES) return response.body;
  const encoding = acceptedEncoding(req);
  if (!encoding) return response.body;
  reply.header('content-encoding', encoding);
  const made = response.encoded[encoding];
  if (made?.smallest) return made.body;
  // Asked before: worth the smaller copy.
  const smallest = made !== undefined;
  const body = compress(response.body, encoding, smallest);
  response.encoded[encoding] = { body, smallest };
  return body;
}

/** The encoding to send to this browser: brotli when it takes it, else gzip, else none. */
function acceptedEncoding(req: FastifyRequest): 'br' | 'gzip' | null {
  return (['br', 'gzip'] as const).find((encoding) => accepts(req, encoding)) ?? null;
}

/**
 * The body of an answer that is never kept (a private page), compressed as cached answers are when the
 * browser accepts it: the same encodings, at the quality a cached answer gets once asked again, since
 * this one is made for one reader and read whole. Sets content-encoding and vary; the caller sets the rest.
 */
export function compressedBody(req: FastifyRequest, reply: FastifyReply, body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  reply.header('vary', 'accept-encoding');
  if (bytes.length < COMPRESS_FROM_BYTES) return bytes;
  const encoding = acceptedEncoding(req);
  if (!encoding) return bytes;
  reply.header('content-encoding', encoding);
  return compress(bytes, encoding, true);
}
