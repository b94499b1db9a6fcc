import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SIZE_LIMITS } from '../modules/media/file-type.js';
import { UploadError } from '../modules/media/upload-receive.js';
import { saveBannerImage } from '../modules/media/upload-store.js';
import type { FileStorage } from '../storage/file-storage.js';
import { isClientAbort } from './client-aborted.js';

export const BANNER_UPLOAD_ROUTE = '/api/admin/settings/banner-image';

/**
 * POST the banner picture for Settings; answers the URL the settings form saves. Registered inside the
 * media upload scope (its multipart parser and limits) with the same admin check.
 */
export function registerBannerUpload(
  scope: FastifyInstance,
  guard: preHandlerAsyncHookHandler,
  deps: { storage: FileStorage },
): void {
  scope.post(BANNER_UPLOAD_ROUTE, { preHandler: guard }, async (req: FastifyRequest, reply: FastifyReply) => {
    const file = await req.file({ limits: { files: 1, fileSize: SIZE_LIMITS.image + 1 } });
    if (!file) throw new UploadError(400, 'Choose an image to upload');
    let data: Buffer;
    try {
      data = await file.toBuffer();
    } catch (error) {
      // A browser that went away is not a file too large: the error handler logs it as such.
      if (isClientAbort(error, req)) throw error;
      throw new UploadError(413, 'The banner image is larger than 15 MB');
    }
    const saved = await saveBannerImage(deps.storage, data);
    req.log.info({ event: 'settings.banner.uploaded', key: saved.key }, 'banner image uploaded');
    return reply.code(201).send({ url: saved.url, width: saved.width, height: saved.height });
  });
}
