import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SIZE_LIMITS, sniff } from '../modules/media/file-type.js';
import { ImageDecodeError, processImage } from '../modules/media/image-variants.js';
import { UPLOADS_PREFIX } from '../modules/media/media.service.js';
import type { FileStorage } from '../storage/file-storage.js';

export const BANNER_UPLOAD_ROUTE = '/api/admin/settings/banner-image';

class BannerUploadError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The banner picture for Settings: one image, checked by content like product media, re-encoded without
 * metadata, stored under a generated name; answers the URL the settings form saves. Registered inside the
 * media upload scope (its multipart parser and limits) with the same admin check.
 */
export function registerBannerUpload(
  scope: FastifyInstance,
  guard: preHandlerAsyncHookHandler,
  deps: { storage: FileStorage },
): void {
  scope.post(BANNER_UPLOAD_ROUTE, { preHandler: guard }, async (req: FastifyRequest, reply: FastifyReply) => {
    const file = await req.file({ limits: { files: 1, fileSize: SIZE_LIMITS.image + 1 } });
    if (!file) throw new BannerUploadError(400, 'Choose an image to upload');
    let data: Buffer;
    try {
      data = await file.toBuffer();
    } catch {
      throw new BannerUploadError(413, 'The banner image is larger than 15 MB');
    }
    if (data.length === 0) throw new BannerUploadError(400, 'The file is empty');
    const sniffed = sniff(data.subarray(0, 4096));
    if (!sniffed.ok || sniffed.file.mediaType !== 'image') {
      throw new BannerUploadError(415, 'The banner must be a JPEG, PNG, WebP, AVIF or GIF image');
    }
    let processed: Awaited<ReturnType<typeof processImage>>;
    try {
      processed = await processImage(data);
    } catch (error) {
      if (error instanceof ImageDecodeError) throw new BannerUploadError(415, 'This image could not be read');
      throw error;
    }
    const largest = processed.variants
      .filter((v) => v.format === 'webp')
      .sort((a, b) => b.width - a.width)[0];
    if (!largest) throw new BannerUploadError(415, 'This image could not be read');
    const key = `${UPLOADS_PREFIX}banner-${randomBytes(12).toString('hex')}.webp`;
    await deps.storage.put(key, largest.data);
    req.log.info({ event: 'settings.banner.uploaded', key }, 'banner image uploaded');
    return reply.code(201).send({ url: `/${key}`, width: largest.width, height: largest.height });
  });
}
