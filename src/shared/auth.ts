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

/** An admin account in the owner's Team view. */
export const teamMemberInput = z.object({ id: z.number().int().positive() });
export const teamRoleInput = teamMemberInput.extend({ role: z.enum(ADMIN_ROLES) });

/** One of the signed-in admin's sessions, named by a handle that is not the session's own id. */
export const sessionHandleInput = z.object({ session: z.string().regex(/^[A-Za-z0-9_-]{16}$/) });

export type AdminSessionInfo = { email: string; loginAt: string; role: AdminRole };
export type AdminProfile = AdminSessionInfo & { createdAt: string; lastLoginAt: string | null };

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
