import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import {
  ACCEPTED_TYPES_TEXT,
  checkText,
  type DetectedFile,
  MAX_FILE_BYTES,
  SIZE_LIMITS,
  SNIFF_BYTES,
  type Sniffed,
  sniff,
} from '../modules/media/file-type.js';
import { ImageDecodeError, processImage } from '../modules/media/image-variants.js';
import { countProductMedia, productExists, toAdminMediaItem } from '../modules/media/media.repository.js';
import {
  insertUploadedMedia,
  MediaError,
  type NewUploadedMedia,
  removeStoredFiles,
  UPLOADS_PREFIX,
} from '../modules/media/media.service.js';
import { cleanFileName, MAX_MEDIA_PER_PRODUCT, MEDIA_MESSAGES } from '../modules/media/media-rules.js';
import type { StoredVariant } from '../modules/media/responsive-image.js';
import type { FileStorage } from '../storage/file-storage.js';
import { registerBannerUpload } from './banner-upload.js';
import { requireAdmin } from './require-admin.js';

export const MEDIA_UPLOAD_ROUTE = '/api/admin/products/:productId/media';
/** Files in one request (never more than the product's free slots). */
export const MAX_FILES_PER_REQUEST = MAX_MEDIA_PER_PRODUCT;
/** Non-file fields we tolerate (and ignore) in one request. */
const MAX_FIELDS = 5;
const MAX_PARTS = MAX_FILES_PER_REQUEST + MAX_FIELDS;
/** All files of one request together. */
export const MAX_REQUEST_BYTES = 250 * 1024 * 1024;

export type MediaUploadDeps = {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  config: Pick<Config, 'session'>;
};

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
};

/** A refusal with the message the admin sees; the app's error handler turns it into {error, message}. */
export class UploadError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = STATUS_NAMES[statusCode] ?? 'Bad Request';
  }
}

const MB = 1024 * 1024;
const kindLabel: Record<DetectedFile['mediaType'], string> = {
  image: 'images',
  video: 'videos',
  pdf: 'PDF files',
  txt: 'text files',
};

function quoted(name: string): string {
  return `"${name.length > 60 ? `${name.slice(0, 57)}...` : name}"`;
}

function refusedType(name: string, result: Extract<Sniffed, { ok: false }>): UploadError {
  return result.reason === 'markup'
    ? new UploadError(
        415,
        `${quoted(name)} was refused: SVG, HTML and other markup files are not allowed. ${ACCEPTED_TYPES_TEXT}`,
      )
    : new UploadError(415, `${quoted(name)} is not a supported file type. ${ACCEPTED_TYPES_TEXT}`);
}

function tooLarge(name: string, mediaType: DetectedFile['mediaType'] | null): UploadError {
  const limit = mediaType ? SIZE_LIMITS[mediaType] : MAX_FILE_BYTES;
  const what = mediaType ? kindLabel[mediaType] : 'files';
  return new UploadError(413, `${quoted(name)} is too large: ${what} can be at most ${limit / MB} MB.`);
}

/** The client's name, checked: it is kept only as a label, but a path in it means a crafted request. */
function displayName(raw: string, ext: string | null): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[/\\\u0000-\u001f\u007f]/.test(raw) || /^\.+$/.test(raw)) {
    throw new UploadError(
      400,
      'File names must be plain names: no folders ("/" or "\\"), no ".." and no control characters.',
    );
  }
  const clean = cleanFileName(raw);
  return clean === '' ? `upload${ext ? `.${ext}` : ''}` : clean;
}

type ReceivedFile = { tempPath: string; fileName: string; detected: DetectedFile; size: number };

/**
 * Streams one file part to a temporary file, deciding its type from its first bytes and enforcing that
 * type's size limit as the bytes arrive. Text is confirmed over the whole file at the end.
 */
async function receiveFile(
  part: MultipartFile,
  tempPath: string,
  budget: { bytesLeft: number },
): Promise<ReceivedFile> {
  const name = displayName(part.filename, null);
  let head = Buffer.alloc(0);
  let detected: DetectedFile | null = null;
  let size = 0;
  const decide = (bytes: Buffer): DetectedFile => {
    const result = sniff(bytes);
    if (!result.ok) throw refusedType(name, result);
    return result.file;
  };
  const handle = await open(tempPath, 'wx', 0o600);
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.bytesLeft -= chunk.length;
      if (!detected) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= SNIFF_BYTES) detected = decide(head);
      }
      if (size > (detected ? SIZE_LIMITS[detected.mediaType] : MAX_FILE_BYTES)) {
        throw tooLarge(name, detected?.mediaType ?? null);
      }
      if (budget.bytesLeft < 0) {
        throw new UploadError(
          413,
          `This upload is too large: at most ${MAX_REQUEST_BYTES / MB} MB in one go.`,
        );
      }
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  if (part.file.truncated) throw tooLarge(name, detected?.mediaType ?? null);
  if (size === 0) throw new UploadError(400, `${quoted(name)} is empty.`);
  detected ??= decide(head);
  if (detected.mediaType === 'txt') {
    const whole = checkText(await readFile(tempPath), true);
    if (!whole.ok) throw refusedType(name, whole);
  }
  return { tempPath, fileName: displayName(part.filename, detected.ext), detected, size };
}

function mapMultipartError(err: unknown, remaining: number): unknown {
  if (err instanceof UploadError || !(err instanceof Error)) return err;
  const code = (err as Error & { code?: unknown }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return remaining < MAX_FILES_PER_REQUEST
        ? new UploadError(400, `${MEDIA_MESSAGES.limitReached}: this product has room for ${remaining} more.`)
        : new UploadError(413, `Too many files: at most ${MAX_FILES_PER_REQUEST} in one upload.`);
    case 'FST_PARTS_LIMIT':
      return new UploadError(413, `Too many parts in one upload: at most ${MAX_PARTS}.`);
    case 'FST_FIELDS_LIMIT':
      return new UploadError(413, `Too many form fields in one upload: at most ${MAX_FIELDS}.`);
    case 'FST_REQ_FILE_TOO_LARGE':
      return new UploadError(413, `A file is too large: at most ${MAX_FILE_BYTES / MB} MB.`);
    case 'FST_MP_PREMATURE_CLOSE':
      return new UploadError(400, 'The upload was interrupted before it finished.');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new UploadError(400, 'The upload form is malformed.');
  }
  if (/unexpected end of|malformed|terminated early|boundary/i.test(err.message)) {
    return new UploadError(400, 'The upload was incomplete or malformed.');
  }
  return err;
}

type Prepared = { row: NewUploadedMedia; files: { key: string; data: Buffer }[] };

/** Turns a received file into what we store: web variants for images, the bytes as they came otherwise. */
async function prepare(file: ReceivedFile): Promise<Prepared> {
  const base = randomBytes(16).toString('hex');
  if (file.detected.mediaType !== 'image') {
    const key = `${UPLOADS_PREFIX}${base}.${file.detected.ext}`;
    const data = await readFile(file.tempPath);
    return {
      row: {
        url: `/${key}`,
        fileName: file.fileName,
        mediaType: file.detected.mediaType,
        storageKey: key,
        contentType: file.detected.contentType,
        byteSize: data.length,
        width: null,
        height: null,
        variants: [],
      },
      files: [{ key, data }],
    };
  }
  let processed: Awaited<ReturnType<typeof processImage>>;
  try {
    processed = await processImage(file.tempPath);
  } catch (err) {
    if (err instanceof ImageDecodeError)
      throw new UploadError(415, `${quoted(file.fileName)} ${err.message}.`);
    throw err;
  }
  const files: Prepared['files'] = [];
  const variants: StoredVariant[] = [];
  for (const v of processed.variants) {
    const key = `${UPLOADS_PREFIX}${base}-${v.width}.${v.format}`;
    files.push({ key, data: v.data });
    variants.push({ url: `/${key}`, width: v.width, format: v.format, storageKey: key });
  }
  const main = processed.variants.find((v) => v.format === 'webp' && v.width === processed.width);
  const mainKey = `${UPLOADS_PREFIX}${base}-${processed.width}.webp`;
  return {
    row: {
      url: `/${mainKey}`,
      fileName: file.fileName,
      mediaType: 'image',
      storageKey: mainKey,
      contentType: 'image/webp',
      byteSize: main?.data.length ?? 0,
      width: processed.width,
      height: processed.height,
      variants,
    },
    files,
  };
}

const registered = new WeakSet<FastifyInstance>();

/**
 * POST /api/admin/products/:productId/media: multipart upload of one or more files (any field name). The
 * multipart parser lives in its own encapsulated scope, so no other route accepts multipart bodies.
 * Answers 201 {items} with the new media, or {error, message} saying what was refused; on any refusal or
 * failure nothing is kept (temporary files are removed, stored files deleted, no row written).
 */
export async function registerMediaUploads(app: FastifyInstance, deps: MediaUploadDeps): Promise<void> {
  // Registering twice on one app would be a duplicate route; the second call is a no-op.
  if (registered.has(app)) return;
  registered.add(app);
  const guard = requireAdmin({
    db: deps.db,
    clock: deps.clock,
    policy: { ttlMs: deps.config.session.ttlMs, idleMs: deps.config.session.idleMs },
  });

  await app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      preservePath: true,
      limits: {
        fieldNameSize: 100,
        fieldSize: 1024,
        fields: MAX_FIELDS,
        fileSize: MAX_FILE_BYTES + 1,
        files: MAX_FILES_PER_REQUEST,
        headerPairs: 20,
        parts: MAX_PARTS,
      },
    });

    registerBannerUpload(scope, guard, { storage: deps.storage });

    scope.post<{ Params: { productId: string } }>(
      MEDIA_UPLOAD_ROUTE,
      { preHandler: guard },
      async (req: FastifyRequest<{ Params: { productId: string } }>, reply: FastifyReply) => {
        try {
          return await handleUpload(req, reply, deps);
        } catch (err) {
          // The rest of the body may still be arriving: do not keep the connection for it.
          reply.header('connection', 'close');
          throw err;
        }
      },
    );
  });
}

async function handleUpload(
  req: FastifyRequest<{ Params: { productId: string } }>,
  reply: FastifyReply,
  deps: MediaUploadDeps,
) {
  const { productId } = req.params;
  if (productId.length > 100 || !(await productExists(deps.db, productId))) {
    throw new UploadError(404, 'Product not found');
  }
  if (!req.isMultipart()) throw new UploadError(415, 'Send the files as multipart/form-data.');
  const remaining = MAX_MEDIA_PER_PRODUCT - (await countProductMedia(deps.db, productId));
  if (remaining <= 0) throw new UploadError(409, MEDIA_MESSAGES.limitReached);

  const tempDir = await mkdtemp(path.join(tmpdir(), 'media-upload-'));
  const written: string[] = [];
  try {
    const received: ReceivedFile[] = [];
    const budget = { bytesLeft: MAX_REQUEST_BYTES };
    try {
      const parts = req.parts({ limits: { files: Math.min(MAX_FILES_PER_REQUEST, remaining) } });
      for await (const part of parts) {
        if (part.type !== 'file') continue; // fields carry nothing we use; their number is bounded
        received.push(await receiveFile(part, path.join(tempDir, `part-${received.length}`), budget));
      }
    } catch (err) {
      throw mapMultipartError(err, remaining);
    }
    if (received.length === 0) throw new UploadError(400, 'Choose at least one file to upload.');

    const rows: NewUploadedMedia[] = [];
    for (const file of received) {
      const prepared = await prepare(file);
      for (const f of prepared.files) {
        written.push(f.key);
        await deps.storage.put(f.key, f.data);
      }
      rows.push(prepared.row);
      await rm(file.tempPath, { force: true });
    }

    let inserted: Awaited<ReturnType<typeof insertUploadedMedia>>;
    try {
      inserted = await insertUploadedMedia(deps.db, deps.clock, productId, rows);
    } catch (err) {
      if (err instanceof MediaError) {
        throw new UploadError(
          err.kind === 'not_found' ? 404 : err.kind === 'limit' ? 409 : 400,
          err.kind === 'limit' ? MEDIA_MESSAGES.limitReached : err.message,
        );
      }
      throw err;
    }
    written.length = 0; // committed: the files belong to their rows now
    req.log.info(
      {
        event: 'media.uploaded',
        account: req.admin?.email,
        product: productId,
        media: inserted.map((r) => r.id),
      },
      'media uploaded',
    );
    return reply.code(201).send({ items: inserted.map(toAdminMediaItem) });
  } finally {
    if (written.length > 0) await removeStoredFiles(deps.storage, written, req.log);
    await rm(tempDir, { recursive: true, force: true });
  }
}
