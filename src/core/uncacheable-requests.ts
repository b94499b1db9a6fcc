/**
 * Requests whose answer must not be kept (see InnerContext.keepOutOfResponseCaches). The mark is set by a
 * query (trpc/) and read by the response caches (http/), so it lives below both; any object will do as the
 * request, which keeps this floor free of Fastify.
 */
const uncacheable = new WeakSet<object>();

/** Marks the request's answer as not to be kept by any response cache, whatever its revision. */
export function keepOutOfResponseCaches(req: object): void {
  uncacheable.add(req);
}

export function isKeptOutOfResponseCaches(req: object): boolean {
  return uncacheable.has(req);
}
