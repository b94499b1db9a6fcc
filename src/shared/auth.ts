import { z } from 'zod';

export const loginInput = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(1024),
});

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().max(1024),
});

export type AdminSessionInfo = { email: string; loginAt: string };
export type AdminProfile = AdminSessionInfo & { createdAt: string; lastLoginAt: string | null };
