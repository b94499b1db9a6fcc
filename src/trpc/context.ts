import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { FileStorage } from '../storage/file-storage.js';

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

/** The signed-in operator, as the session check resolved it. Sign-in arrives with the admin issue. */
export type AdminIdentity = { id: number; email: string };

/** What every procedure may use. Tests build this directly; the HTTP layer adds the request's parts. */
export type InnerContext = {
  db: Db;
  config: Config;
  clock: Clock;
  storage: FileStorage;
  log: FastifyBaseLogger;
  admin: AdminIdentity | null;
  requestId: string;
};

export type Context = InnerContext;

export type ContextDeps = Omit<InnerContext, 'admin' | 'requestId' | 'log'>;

export function createContextFactory(deps: ContextDeps) {
  return async ({ req }: CreateFastifyContextOptions): Promise<Context> => ({
    ...deps,
    log: req.log,
    admin: null,
    requestId: String(req.id),
  });
}
