import { TRPCError } from '@trpc/server';
import {
  type CatalogDeps,
  CatalogError,
  deleteVersion,
  exportCatalog,
  listVersions,
  readVersionContent,
  setActiveVersion,
} from '../../modules/catalog-versions/catalog-versions.service.js';
import { catalogVersionIdInput, exportCatalogInput } from '../../shared/catalog-versions-input.js';
import { ownerProcedure, router } from '../init.js';

function deps(ctx: CatalogDeps): CatalogDeps {
  return { db: ctx.db, storage: ctx.storage, clock: ctx.clock };
}

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof CatalogError) throw new TRPCError({ code: err.code, message: err.message });
    throw err;
  }
}

/** admin.catalog.*: catalogue versions (export, view, publish, delete). Import and download are HTTP routes. */
export const adminCatalogRouter = router({
  versions: ownerProcedure.query(({ ctx }) => listVersions(ctx.db)),

  content: ownerProcedure
    .input(catalogVersionIdInput)
    .query(({ ctx, input }) =>
      mapped(async () => ({ content: await readVersionContent(deps(ctx), input.id) })),
    ),

  export: ownerProcedure.input(exportCatalogInput).mutation(async ({ ctx, input }) => {
    const version = await exportCatalog(deps(ctx), {
      label: input.label,
      tags: input.tags,
      adminEmail: ctx.admin.email,
    });
    ctx.log.info(
      {
        event: 'catalog.exported',
        version: version.id,
        products: version.productCount,
        account: ctx.admin.email,
      },
      `catalog exported: ${version.label}`,
    );
    return version;
  }),

  setActive: ownerProcedure
    .meta({ freshCode: true })
    .input(catalogVersionIdInput)
    .mutation(({ ctx, input }) =>
      mapped(async () => {
        const result = await setActiveVersion(deps(ctx), input.id, { adminEmail: ctx.admin.email });
        // The published version's stock may make sold-out sizes available.
        ctx.backInStock.nudge();
        ctx.log.info(
          {
            event: 'catalog.activated',
            version: input.id,
            backup: result.backup.id,
            account: ctx.admin.email,
          },
          `catalog version set active: ${result.version.label}`,
        );
        return result;
      }),
    ),

  /**
   * A fresh confirmation, as publishing needs: a stored version is what the owner goes back to after a bad
   * import, so a stolen cookie must not be able to throw the way back away.
   */
  remove: ownerProcedure
    .meta({ freshCode: true })
    .input(catalogVersionIdInput)
    .mutation(({ ctx, input }) =>
      mapped(async () => {
        await deleteVersion(deps(ctx), input.id);
        ctx.log.info(
          { event: 'catalog.version_deleted', version: input.id, account: ctx.admin.email },
          `catalog version deleted: ${input.id}`,
        );
        return { ok: true as const };
      }),
    ),
});
