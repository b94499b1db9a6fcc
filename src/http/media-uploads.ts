import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { sessionPolicyOf } from '../modules/auth/session.js';
import { MAX_FILE_BYTES } from '../modules/media/file-type.js';
import { countProductMedia, productExists } from '../modules/media/media.repository.js';
import {
  MAX_FILES_PER_REQUEST,
  MAX_REQUEST_BYTES,
  type ReceivedFile,
  receiveFile,
  UploadError,
} from '../modules/media/upload-receive.js';
import { saveUploads } from '../modules/media/upload-store.js';
import { MAX_MEDIA_PER_PRODUCT, MEDIA_MESSAGES } from '../shared/media-rules.js';
import type { FileStorage } from '../storage/file-storage.js';
import { registerBannerUpload } from './banner-upload.js';
import { requireAdmin } from './require-admin.js';

export const MEDIA_UPLOAD_ROUTE = '/api/admin/products/:productId/media';
/** Non-file fields we tolerate (and ignore) in one request. */
const MAX_FIELDS = 5;
const MAX_PARTS = MAX_FILES_PER_REQUEST + MAX_FIELDS;
const MB = 1024 * 1024;

export type MediaUploadDeps = {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  config: Pick<Config, 'session'>;
};

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
  const session = {
    db: deps.db,
    clock: deps.clock,
    policy: sessionPolicyOf(deps.config),
  };
  // Product pictures are staff work; the banner is a setting, the owner's (decision 0030).
  const guard = requireAdmin(session);

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

    registerBannerUpload(scope, requireAdmin(session, 'owner'), { storage: deps.storage });

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
    const items = await saveUploads({ ...deps, log: req.log }, productId, received);
    req.log.info(
      {
        event: 'media.uploaded',
        account: req.admin?.email,
        product: productId,
        media: items.map((item) => item.id),
      },
      'media uploaded',
    );
    return reply.code(201).send({ items });
  } finally {
    await rm(tempDir, { recursive: true, force: true });
  }
}
