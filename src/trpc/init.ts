import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError, z } from 'zod';
import {
  DATABASE_BUSY_MESSAGE,
  GENERIC_ERROR_MESSAGE,
  isDatabaseBusy,
  isStorageFull,
  STORAGE_FULL_MESSAGE,
  TOO_MANY_REQUESTS_MESSAGE,
} from '../core/failures.js';
import { type AuditNote, recordAdminChange } from '../modules/audit/admin-change.js';
import { isFreshlyConfirmed } from '../modules/auth/fresh-proof.js';
import { GateRefusedError } from '../modules/limits/public-call-gate.js';
import { ENROL_FIRST_MESSAGE, FRESH_PROOF_MESSAGE, OWNER_ONLY_MESSAGE } from '../shared/auth.js';
import type { AdminIdentity, Context } from './context.js';

/** What a procedure may declare about itself (`.meta({...})`), read by the admin builders below. */
export type ProcedureMeta = {
  /**
   * Open to a session that must turn two-factor on before anything else (ADMIN_REQUIRE_2FA): the
   * enrolment's own procedures (decision 0032).
   */
  duringEnrolment?: boolean;
  /**
   * Needs the session to have proved who is behind it in the last 10 minutes (a code, or the password on
   * an account without two-factor): refunds, publishing a catalogue, deleting products, managing admins.
   */
  freshCode?: boolean;
};

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    /**
     * The one error shape clients see. Validation errors carry flattened field errors for forms. Unexpected
     * errors never reveal their text or stack in production: the client gets a generic message and the
     * request id, which is also on the server's log line of the failure (req.log carries it), so a person
     * can quote it. A busy database is a 503 with a "try again" message instead of a 500.
     */
    errorFormatter({ shape, error, ctx }) {
      const production = ctx?.config.isProduction ?? true;
      const busy = isDatabaseBusy(error.cause);
      const full = !busy && isStorageFull(error.cause);
      const zodError = error.code === 'BAD_REQUEST' && error.cause instanceof ZodError ? error.cause : null;
      const hidden = production && error.code === 'INTERNAL_SERVER_ERROR';
      return {
        ...shape,
        message: busy
          ? DATABASE_BUSY_MESSAGE
          : full
            ? STORAGE_FULL_MESSAGE
            : hidden
              ? GENERIC_ERROR_MESSAGE
              : zodError
                ? 'Invalid input'
                : shape.message,
        data: {
          // The HTTP status of the answer is read from data.httpStatus, so this is what makes it a 503.
          code: busy || full ? ('SERVICE_UNAVAILABLE' as const) : shape.data.code,
          httpStatus: busy ? 503 : full ? 507 : shape.data.httpStatus,
          path: shape.data.path,
          requestId: ctx?.requestId ?? null,
          // fieldErrors names only the top field ('fields'); paths names the one inside it ('fields.colors.2.name').
          zodError: zodError ? { ...z.flattenError(zodError), paths: issuePaths(zodError) } : null,
          ...(production ? {} : { stack: shape.data.stack }),
        },
      };
    },
  });

/** The first message per dotted path of a refused input, so a form can show it beside the field itself. */
function issuePaths(error: ZodError): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    if (key && !(key in paths)) paths[key] = issue.message;
  }
  return paths;
}

export const router = t.router;
/**
 * Public queries take their turn at the gate (modules/limits/public-call-gate.ts): one at a time, with the
 * event loop let in at least every slice of the thread (2 ms), a time budget per address, and a bounded wait. Mutations have limits of their
 * own (sign-in throttle, checkout sessions per address); admins are not budgeted.
 */
const publicQueryGate = t.middleware(async ({ ctx, type, next }) => {
  if (type !== 'query' || ctx.admin) return next();
  return throughPublicGate(ctx, () => next());
});

/**
 * `call` in its turn at the public-query gate, as the middleware above runs a public query; a refusal is
 * logged and becomes tRPC's 429 or 503. public-caller.ts runs the hot storefront queries through it directly.
 */
export async function throughPublicGate<T>(
  ctx: Pick<Context, 'limits' | 'ip' | 'gateCharged' | 'log'>,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await ctx.limits.publicQueries.run(ctx.ip, call, ctx.gateCharged);
  } catch (error) {
    if (!(error instanceof GateRefusedError)) throw error;
    if (error.refusal.kind === 'rate') {
      ctx.log.warn({ event: 'security.rate_limited', ip: ctx.ip }, 'public queries over their budget');
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_REQUESTS_MESSAGE, cause: error });
    }
    ctx.log.warn({ event: 'store.busy', reason: error.refusal.reason }, 'public query refused: store busy');
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: DATABASE_BUSY_MESSAGE, cause: error });
  }
}

export const publicProcedure = t.procedure.use(publicQueryGate);
export const createCallerFactory = t.createCallerFactory;

/**
 * Every admin procedure is built on this. It refuses any caller without a resolved admin and hands the next
 * step a context whose admin is never null. A session that must enrol in two-factor first reaches only the
 * procedures marked `duringEnrolment`.
 */
const signedIn = t.procedure.use(async ({ ctx, next, path, type, getRawInput, meta }) => {
  const pending = ctx.pendingSignIn;
  const admin = ctx.admin ?? (meta?.duringEnrolment && pending?.stage === 'enrol' ? pending.admin : null);
  if (!admin && pending?.stage === 'enrol') {
    throw new TRPCError({ code: 'FORBIDDEN', message: ENROL_FIRST_MESSAGE });
  }
  if (!admin) {
    // The same security event as an admin HTTP route's 401 (http/require-admin.ts); inputs stay out of it.
    ctx.log.info(
      { event: 'security.unauthorized', procedure: path, type, ip: ctx.ip },
      'refused an admin request without a valid session',
    );
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in' });
  }
  const audit: AuditNote = {};
  const result = await next({ ctx: { ...ctx, admin, audit } });
  // Every change an admin makes, once it has been made (decision 0031); reads are not changes.
  if (type === 'mutation' && result.ok) {
    // A procedure without input may be called with a body that is no JSON at all: nothing to keep of it.
    const input = await getRawInput().catch(() => undefined);
    await recordAdminChange(ctx, admin, path, input, audit);
  }
  return result;
});

/**
 * Procedures only the shop's owner may call (decision 0030): refunds and cancellations, settings, catalogue
 * versions, the application log, the performance panel, the audit and managing admins. Staff get 403,
 * logged like a 401.
 * Everything else under admin.* is for any admin (adminProcedure), owner or staff.
 */
export const ownerProcedure = signedIn.use(({ ctx, next, path, type, meta }) => {
  if (ctx.admin.role !== 'owner') {
    ctx.log.warn(
      { event: 'security.forbidden', procedure: path, type, ip: ctx.ip, adminId: ctx.admin.id },
      'refused an owner-only request from a staff account',
    );
    throw new TRPCError({ code: 'FORBIDDEN', message: OWNER_ONLY_MESSAGE });
  }
  requireFreshProof(ctx, meta);
  return next();
});

/** Any signed-in admin, owner or staff; a procedure marked freshCode needs a recent confirmation too. */
export const adminProcedure = signedIn.use(({ ctx, next, meta }) => {
  requireFreshProof(ctx, meta);
  return next();
});

function requireFreshProof(
  ctx: Pick<Context, 'clock' | 'log' | 'ip'> & { admin: AdminIdentity },
  meta: ProcedureMeta | undefined,
): void {
  if (!meta?.freshCode || isFreshlyConfirmed(ctx.admin, ctx.clock.now())) return;
  ctx.log.info(
    { event: 'admin.confirm.needed', account: ctx.admin.email, ip: ctx.ip },
    'an action needs a fresh confirmation',
  );
  throw new TRPCError({ code: 'PRECONDITION_FAILED', message: FRESH_PROOF_MESSAGE });
}
