import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { MEDIA_MESSAGES } from '../../shared/media-rules.js';
import type { StoredVariant } from '../../shared/responsive-image.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { UPLOADS_PREFIX } from '../../storage/storage-keys.js';
import { sniff } from './file-type.js';
import { ImageDecodeError, processImage } from './image-variants.js';
import type { AdminMediaItem } from './media.repository.js';
import { toAdminMediaItem } from './media.repository.js';
import {
  insertUploadedMedia,
  MediaError,
  type NewUploadedMedia,
  removeStoredFiles,
} from './media.service.js';
import { quoted, type ReceivedFile, UploadError } from './upload-receive.js';

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

/**
 * Stores received files and their rows for one product: web variants for images, the bytes as they came
 * otherwise. All or nothing: if a file cannot be stored or the rows cannot be written, the files already
 * stored are removed again.
 */
export async function saveUploads(
  deps: { db: Db; storage: FileStorage; clock: Clock; log: FastifyBaseLogger },
  productId: string,
  received: readonly ReceivedFile[],
): Promise<AdminMediaItem[]> {
  const written: string[] = [];
  try {
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
    return inserted.map(toAdminMediaItem);
  } finally {
    if (written.length > 0) await removeStoredFiles(deps.storage, written, deps.log);
  }
}

/**
 * The banner picture for Settings: one image, checked by content like product media, re-encoded without
 * metadata (the largest WebP variant), stored under a generated name.
 */
export async function saveBannerImage(
  storage: FileStorage,
  data: Buffer,
): Promise<{ url: string; key: string; width: number; height: number }> {
  if (data.length === 0) throw new UploadError(400, 'The file is empty');
  const sniffed = sniff(data.subarray(0, 4096));
  if (!sniffed.ok || sniffed.file.mediaType !== 'image') {
    throw new UploadError(415, 'The banner must be a JPEG, PNG, WebP, AVIF or GIF image');
  }
  let processed: Awaited<ReturnType<typeof processImage>>;
  try {
    processed = await processImage(data);
  } catch (error) {
    if (error instanceof ImageDecodeError) throw new UploadError(415, 'This image could not be read');
    throw error;
  }
  const largest = processed.variants.filter((v) => v.format === 'webp').sort((a, b) => b.width - a.width)[0];
  if (!largest) throw new UploadError(415, 'This image could not be read');
  const key = `${UPLOADS_PREFIX}banner-${randomBytes(12).toString('hex')}.webp`;
  await storage.put(key, largest.data);
  return { url: `/${key}`, key, width: largest.width, height: largest.height };
}
