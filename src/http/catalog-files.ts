import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import type { SessionPolicy } from '../modules/auth/session.js';
import { CatalogFileError, MAX_CATALOG_BYTES } from '../modules/catalog-versions/catalog-file.js';
import {
  CatalogError,
  findVersion,
  importCatalog,
} from '../modules/catalog-versions/catalog-versions.service.js';
import type { BackInStockWatch } from '../modules/stock/back-in-stock-worker.js';
import { IMPORT_MODES, type ImportModeName } from '../shared/catalog-versions-input.js';
import { type FileStorage, StoredFileMissing } from '../storage/file-storage.js';
import { requireAdmin } from './require-admin.js';

export const CATALOG_IMPORT_ROUTE = '/api/admin/catalog/import';
export const catalogDownloadUrl = (id: string) =>
  `/api/admin/catalog/versions/${encodeURIComponent(id)}/download`;

/**
 * Admin-only catalogue file routes: GET .../versions/:id/download streams a version's YAML file from the
 * store's own storage; POST /api/admin/catalog/import takes a multipart YAML file and a mode field.
 */
export async function registerCatalogFiles(
  app: FastifyInstance,
  deps: {
    db: Db;
    storage: FileStorage;
    clock: Clock;
    policy: SessionPolicy;
    /** Nudged after an import: it may have made sold-out sizes available. */
    backInStock: BackInStockWatch;
  },
): Promise<void> {
  const session = { db: deps.db, clock: deps.clock, policy: deps.policy };
  const guard = requireAdmin(session, 'owner');
  // An import changes the live catalogue: publishing, which needs a fresh confirmation (decision 0032).
  const publishGuard = requireAdmin(session, 'owner', { freshProof: true });

  app.get<{ Params: { id: string } }>(
    '/api/admin/catalog/versions/:id/download',
    { preHandler: guard },
    async (req, reply) => {
      let version: Awaited<ReturnType<typeof findVersion>>;
      try {
        version = await findVersion(deps.db, req.params.id);
      } catch (err) {
        if (err instanceof CatalogError)
          return reply.code(404).send({ error: 'Not Found', message: err.message });
        throw err;
      }
      let file: Readable;
      try {
        // Opened before any header is set: a file missing from storage is a clear 404, not a cut download.
        file = await deps.storage.stream(version.storageKey);
      } catch (err) {
        if (!(err instanceof StoredFileMissing)) throw err;
        return reply
          .code(404)
          .send({ error: 'Not Found', message: 'The file of this version is missing from storage.' });
      }
      return reply
        .header('content-type', 'application/yaml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${version.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { files: 1, fields: 4, parts: 5, fileSize: MAX_CATALOG_BYTES, fieldSize: 100 },
    });
    scope.post(
      CATALOG_IMPORT_ROUTE,
      { preHandler: publishGuard, bodyLimit: MAX_CATALOG_BYTES + 64 * 1024 },
      async (req, reply) => {
        const bad = (status: number, message: string) =>
          reply.code(status).send({ error: status === 413 ? 'Payload Too Large' : 'Bad Request', message });
        if (!req.isMultipart()) return bad(415, 'Send the file as multipart/form-data.');
        let mode: ImportModeName = 'add';
        let content: string | null = null;
        for await (const part of req.parts()) {
          if (part.type === 'field') {
            if (part.fieldname === 'mode') {
              const value = String(part.value);
              if (!(IMPORT_MODES as readonly string[]).includes(value))
                return bad(400, 'Unknown import mode');
              mode = value as ImportModeName;
            }
            continue;
          }
          const buffer = await part.toBuffer().catch((err: unknown) => {
            if (err instanceof Error && /too large|limit/i.test(err.message)) return null;
            throw err;
          });
          if (buffer === null || part.file.truncated) {
            return bad(
              413,
              `The file is larger than ${MAX_CATALOG_BYTES / 1024 / 1024} MB. Split the catalogue into smaller files.`,
            );
          }
          content = buffer.toString('utf8');
        }
        if (content === null) return bad(400, 'Please select a file to import');
        try {
          const result = await importCatalog(
            { db: deps.db, storage: deps.storage, clock: deps.clock },
            content,
            mode,
            {
              ...(req.admin ? { adminEmail: req.admin.email } : {}),
            },
          );
          deps.backInStock.nudge();
          req.log.info(
            {
              event: 'catalog.imported',
              mode,
              added: result.added,
              skipped: result.skippedCount,
              invalid: result.invalidCount,
              ignored: result.ignoredCount,
              account: req.admin?.email,
            },
            result.message,
          );
          return result;
        } catch (err) {
          if (err instanceof CatalogFileError) return bad(400, err.message);
          throw err;
        }
      },
    );
  });
}
