import { z } from 'zod';

export const loginInput = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(1024),
});

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().max(1024),
});

/** What an admin account may do (decision 0030): an owner everything, staff products, media and orders. */
export type AdminRole = 'owner' | 'staff';
export const ADMIN_ROLES = ['owner', 'staff'] as const satisfies readonly AdminRole[];

/** What staff are told when they reach for something only the owner may do (HTTP 403). */
export const OWNER_ONLY_MESSAGE = 'Only the shop owner can do this.';

/** An action that needs a fresh confirmation (HTTP 412): the admin client asks for one and tries again. */
export const FRESH_PROOF_MESSAGE =
  'Please confirm it is you: this needs a code from your authenticator app (or your password) from the last 10 minutes.';

/** A session of an account that must turn two-factor on first (ADMIN_REQUIRE_2FA) reaching anything else. */
export const ENROL_FIRST_MESSAGE = 'Set up two-factor sign-in first: this shop requires it.';

/** A six-digit code from the app, or a recovery code ("abcd-efgh-jkmn-pqrs"); spaces typed in are dropped. */
export const secondFactorCode = z
  .string()
  .max(64)
  .transform((code) => code.replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .min(1, 'Enter the code')
      .regex(
        /^(\d{6}|[A-Za-z0-9]{4}(-?[A-Za-z0-9]{4}){3})$/,
        'Enter the 6-digit code from your app, or a recovery code',
      ),
  );

export const signInCodeInput = z.object({ code: secondFactorCode });
export const enrolmentCodeInput = z.object({
  code: z
    .string()
    .max(64)
    .transform((code) => code.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your app')),
});
export const disableTwoFactorInput = z.object({
  password: z.string().min(1, 'Password is required').max(1024),
  code: secondFactorCode,
});
/** "Is it still you?": a code with two-factor on, the password without. */
export const confirmIdentityInput = z
  .object({ code: secondFactorCode.optional(), password: z.string().min(1).max(1024).optional() })
  .refine((v) => v.code !== undefined || v.password !== undefined, 'Enter a code or your password');

/** An invitation to the admin (decision 0032): emailed through the outbox unless told not to. */
export const inviteInput = z.object({
  email: z.email('Enter an email address').max(254),
  role: z.enum(ADMIN_ROLES),
  send: z.boolean().default(true),
});
export const inviteTokenInput = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This is not an invitation link'),
});
export const acceptInviteInput = inviteTokenInput.extend({ password: z.string().max(1024) });

/** An admin account in the owner's Team view. */
export const teamMemberInput = z.object({ id: z.number().int().positive() });
export const teamRoleInput = teamMemberInput.extend({ role: z.enum(ADMIN_ROLES) });

/** One of the signed-in admin's sessions, named by a handle that is not the session's own id. */
export const sessionHandleInput = z.object({ session: z.string().regex(/^[A-Za-z0-9_-]{16}$/) });

export type AdminSessionInfo = {
  stage: 'signed-in';
  email: string;
  loginAt: string;
  role: AdminRole;
  twoFactor: boolean;
};
/** A session half signed in: it owes a two-factor code, or must turn two-factor on first. */
export type PendingSignInInfo = { stage: 'code' | 'enrol'; email: string };
export type AdminProfile = Omit<AdminSessionInfo, 'stage' | 'twoFactor'> & {
  createdAt: string;
  lastLoginAt: string | null;
};

/** A session as its admin sees it in the list on the profile page. */
export type AdminSessionEntry = {
  /** What endSession takes (a hash of the session's id, which never leaves the sealed cookie). */
  session: string;
  device: string;
  userAgent: string | null;
  address: string | null;
  signedInAt: string;
  lastSeenAt: string;
  /** The session of the browser asking. */
  current: boolean;
};
