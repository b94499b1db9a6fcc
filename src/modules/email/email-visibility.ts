import type { AdminRole, EmailKind } from '../../db/database.js';

/**
 * Team invitations are the owner's (admin.team.invite is owner-only): their emails, which name who is
 * invited and where from, are neither listed, counted nor sent again for staff.
 */
const OWNER_ONLY_KINDS: readonly EmailKind[] = ['admin_invite'];

export function emailKindsHiddenFrom(role: AdminRole): readonly EmailKind[] {
  return role === 'owner' ? [] : OWNER_ONLY_KINDS;
}
