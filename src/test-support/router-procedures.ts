import type { ProcedureMeta } from '../trpc/init.js';
import { appRouter } from '../trpc/router.js';

type ProcedureDef = {
  _def: { type: 'query' | 'mutation' | 'subscription'; meta?: ProcedureMeta | undefined };
};

/** Every procedure path in appRouter, with its kind, found by walking the router (nothing listed by hand). */
export const routerProcedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, ProcedureDef>,
).map(([path, p]) => ({ path, type: p._def.type, meta: p._def.meta ?? {} }));

/** The admin procedures (admin.*), for the tests that must cover each one. */
export const adminProcedures = routerProcedures.filter((p) => p.path.startsWith('admin.'));

/** Calls a procedure of a tRPC caller by its dotted path. */
export function procedureOf(caller: unknown, path: string): (input?: unknown) => Promise<unknown> {
  const fn = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller);
  return fn as (input?: unknown) => Promise<unknown>;
}
