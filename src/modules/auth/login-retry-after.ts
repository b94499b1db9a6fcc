/** The cause of a throttled sign-in's TRPCError: tRPC errors carry no headers of their own. */
export class SignInThrottled extends Error {
  override name = 'SignInThrottled';
  constructor(readonly retryAfterSeconds: number) {
    super(`sign-in throttled for ${retryAfterSeconds} s`);
  }
}

/** tRPC's responseMeta: a throttled sign-in's 429 says when to come back, in Retry-After. */
export function loginRetryAfter(opts: { errors: readonly { cause?: unknown }[] }): {
  headers?: Record<string, string>;
} {
  const throttled = opts.errors.find((e) => e.cause instanceof SignInThrottled)?.cause;
  return throttled instanceof SignInThrottled
    ? { headers: { 'retry-after': String(throttled.retryAfterSeconds) } }
    : {};
}
