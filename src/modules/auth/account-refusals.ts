import { TRPCError } from '@trpc/server';
import { AdminAccountError } from './admin-accounts.js';

/**
 * The accounts' own refusals (the last owner, an email that is an admin already, a spent invitation) are
 * for the person to read: a 400 with their message. Anything else goes on as it was thrown.
 */
export async function refusalsAsBadRequest<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof AdminAccountError)
      throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
    throw error;
  }
}
