import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Context } from './context.js';

/** What the body of a hot public query uses: nothing of a session, an admin or the request beyond these. */
export type PublicQueryContext = Pick<
  Context,
  'db' | 'log' | 'storefrontRevision' | 'keepOutOfResponseCaches'
>;

/**
 * A public query's input and body, defined once: its router builds the tRPC procedure from it, and the
 * in-process caller (public-caller.ts) runs it without tRPC's caller, whose proxy and middleware chain cost
 * more than a listing's facet counts (a copy of the whole context per middleware, per call).
 */
export type PublicQuery<S extends z.ZodType, O> = {
  input: S;
  run(ctx: PublicQueryContext, input: z.output<S>): Promise<O>;
};

export function publicQuery<S extends z.ZodType, O>(
  input: S,
  run: (ctx: PublicQueryContext, input: z.output<S>) => Promise<O>,
): PublicQuery<S, O> {
  return { input, run };
}

/**
 * The query's body on raw input, validated as tRPC validates it: input that does not parse is tRPC's
 * BAD_REQUEST, which the callers treat as tRPC's own (the public API cache gives the request back to tRPC,
 * which writes the error; the page render leaves that query to the browser).
 */
export async function runOnRawInput<S extends z.ZodType, O>(
  query: PublicQuery<S, O>,
  ctx: PublicQueryContext,
  raw: unknown,
): Promise<O> {
  // Asynchronously, as tRPC parses: a schema may gain an asynchronous refinement.
  const parsed = await query.input.safeParseAsync(raw);
  if (!parsed.success)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid input', cause: parsed.error });
  return query.run(ctx, parsed.data);
}
