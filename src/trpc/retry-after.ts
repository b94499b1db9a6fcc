/**
 * tRPC's responseMeta: a refusal that knows when to come back (a throttled sign-in, an address over its
 * query budget) says so in Retry-After. tRPC errors carry no headers of their own, so the time travels as
 * the error's cause.
 */
export function retryAfterMeta(opts: { errors: readonly { cause?: unknown }[] }): {
  headers?: Record<string, string>;
} {
  let seconds = 0;
  for (const e of opts.errors) {
    const value = (e.cause as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (typeof value === 'number' && Number.isFinite(value)) seconds = Math.max(seconds, Math.ceil(value));
  }
  return seconds > 0 ? { headers: { 'retry-after': String(seconds) } } : {};
}
