import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminRole } from '../../db/database.js';
import { createTestStore, fixedClock, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { enqueueEmail, type OutgoingEmail } from './outbox.repository.js';

const email = (kind: OutgoingEmail['kind'], to: string): OutgoingEmail => ({
  kind,
  orderId: null,
  to,
  subject: `${kind} for ${to}`,
  html: '<p>hello</p>',
  text: 'hello',
});

describe('team invitation emails are the owner’s, like invitations (admin.emails)', () => {
  let store: TestStore;
  let inviteId: string;
  let orderEmailId: string;
  beforeEach(async () => {
    store = await createTestStore();
    const now = fixedClock.now();
    orderEmailId = await enqueueEmail(store.handle.db, email('order_confirmation', 'shopper@x.example'), now);
    inviteId = await enqueueEmail(store.handle.db, email('admin_invite', 'new-hire@x.example'), now);
  });
  afterEach(() => store.cleanup());

  const callerAs = (role: AdminRole) =>
    store.caller({
      admin: { id: 1, email: `${role}@shop.example`, loginAt: '', role, ...SESSION_FACTS },
    });

  it('lists invitation emails to the owner only; staff see the order emails', async () => {
    const ownerSees = await callerAs('owner').admin.emails.list({});
    expect(ownerSees.items.map((e) => e.id).sort()).toEqual([orderEmailId, inviteId].sort());
    const staffSees = await callerAs('staff').admin.emails.list({});
    expect(staffSees.items.map((e) => e.id)).toEqual([orderEmailId]);
    const staffQueued = await callerAs('staff').admin.emails.list({ status: 'queued' });
    expect(staffQueued.items.map((e) => e.kind)).toEqual(['order_confirmation']);
  });

  it('refuses staff resending an invitation email, and lets the owner', async () => {
    const staff = callerAs('staff');
    await expect(staff.admin.emails.resend({ id: inviteId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await staff.admin.emails.resend({ id: orderEmailId })).toEqual({ ok: true });
    expect(await callerAs('owner').admin.emails.resend({ id: inviteId })).toEqual({ ok: true });
  });
});
