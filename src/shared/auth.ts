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

export type AdminSessionInfo = { email: string; loginAt: string; role: AdminRole };
export type AdminProfile = AdminSessionInfo & { createdAt: string; lastLoginAt: string | null };
