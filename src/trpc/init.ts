import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError, z } from 'zod';
import type { Context } from './context.js';

const t = initTRPC.context<Context>().create({
  /**
   * The one error shape clients see. Validation errors carry flattened field errors for forms. Unexpected
   * errors never reveal their text in production: the client gets a generic message and the request id
   * that the operator can find in the server log.
   */
  errorFormatter({ shape, error, ctx }) {
    const production = ctx?.config.isProduction ?? true;
    const zodError = error.code === 'BAD_REQUEST' && error.cause instanceof ZodError ? error.cause : null;
    const hidden = production && error.code === 'INTERNAL_SERVER_ERROR';
    return {
      ...shape,
      message: hidden
        ? 'Something went wrong on our side. Please try again.'
        : zodError
          ? 'Invalid input'
          : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        requestId: ctx?.requestId ?? null,
        zodError: zodError ? z.flattenError(zodError) : null,
        ...(production ? {} : { stack: shape.data.stack }),
      },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every admin procedure is built on this. It refuses any caller without a resolved admin and hands the next
 * step a context whose admin is never null.
 */
export const adminProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.admin) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in' });
  return next({ ctx: { ...ctx, admin: ctx.admin } });
});
