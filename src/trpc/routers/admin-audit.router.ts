import { auditFacets, listAudit } from '../../modules/audit/audit.repository.js';
import { auditListInput } from '../../shared/audit.js';
import { ownerProcedure, router } from '../init.js';

/** admin.audit.*: who changed what, when and from where (the owner's: decision 0031). */
export const adminAuditRouter = router({
  list: ownerProcedure.input(auditListInput).query(({ ctx, input }) => listAudit(ctx.db, input)),
  /** The admins and actions on record, for the view's filters. */
  facets: ownerProcedure.query(({ ctx }) => auditFacets(ctx.db)),
});
