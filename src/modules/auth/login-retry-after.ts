/**
 * The cause of a throttled sign-in's TRPCError: tRPC errors carry no headers of their own, so the API's
 * responseMeta (trpc/retry-after.ts) reads the wait from here into Retry-After.
 */
export class SignInThrottled extends Error {
  override name = 'SignInThrottled';
  constructor(readonly retryAfterSeconds: number) {
    super(`sign-in throttled for ${retryAfterSeconds} s`);
  }
}
