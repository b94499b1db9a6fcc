import { TRPCError } from '@trpc/server';
import type { InnerContext } from '../../trpc/context.js';
import { findAdminByEmail, normaliseEmail, recordLogin } from './admins.repository.js';
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from './password.js';

export const INVALID_CREDENTIALS = 'Invalid credentials';

// Verified against when the email is unknown, so both misses cost the same time.
let dummyHash: Promise<string> | null = null;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-just-for-timing', DEFAULT_SCRYPT);
  return dummyHash;
}

export async function login(ctx: InnerContext, email: string, password: string): Promise<{ email: string }> {
  const account = normaliseEmail(email);
  const waitSeconds = ctx.loginThrottle.attempt(ctx.ip, account);
  if (waitSeconds > 0) {
    ctx.log.warn({ event: 'admin.login.throttled', ip: ctx.ip }, 'sign-in refused: too many attempts');
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: `Too many sign-in attempts. Please try again in ${Math.ceil(waitSeconds / 60)} minute(s).`,
    });
  }

  const admin = await findAdminByEmail(ctx.db, account);
  const ok = await verifyPassword(password, admin?.passwordHash ?? (await getDummyHash()));
  if (!admin || !ok) {
    const { lockedNow } = ctx.loginThrottle.failed(account);
    // Only a real account's email is logged: a miss may be someone's password typed in the wrong field.
    ctx.log.warn(
      { event: 'admin.login.failed', account: admin ? admin.email : '(unknown)', ip: ctx.ip },
      'sign-in failed',
    );
    if (lockedNow) {
      ctx.log.warn(
        { event: 'admin.login.locked', account: admin ? admin.email : '(unknown)' },
        'account locked',
      );
    }
    throw new TRPCError({ code: 'UNAUTHORIZED', message: INVALID_CREDENTIALS });
  }

  ctx.loginThrottle.succeeded(account);
  const now = ctx.clock.now();
  await recordLogin(ctx.db, admin.id, now);
  ctx.session.write({
    adminId: admin.id,
    epoch: admin.sessionEpoch,
    issuedAt: now.getTime(),
    lastSeenAt: now.getTime(),
  });
  ctx.log.info({ event: 'admin.login', account: admin.email, ip: ctx.ip }, 'admin signed in');
  return { email: admin.email };
}
