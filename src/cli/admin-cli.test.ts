import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdminById, listAdmins } from '../modules/auth/admins.repository.js';
import { acceptInvite } from '../modules/auth/invites/invites.js';
import { readSessionKeyFile } from '../modules/auth/session-keys.js';
import { SecretBox } from '../modules/auth/two-factor/secret-box.js';
import { adminCommand } from '../test-support/admin-command.js';
import { createTestStore, type TestStore } from '../test-support/test-store.js';

/** `npm run admin -- ARGS` on the test's database, as the server would open it. */
function admin(store: TestStore, args: string[], stdin = '') {
  return adminCommand(args, {
    stdin,
    env: {
      NODE_ENV: 'test',
      DATA_DIR: store.dir,
      // As the store's own processes are configured on PostgreSQL (the same session key everywhere).
      ...(store.postgresUrl
        ? { DATABASE_URL: store.postgresUrl, SESSION_SECRET: 'a-session-key-of-at-least-32-characters' }
        : {}),
    },
  });
}

describe('npm run admin (the command)', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(() => store.cleanup());

  it('creates owners and staff, changes roles, and keeps the last owner', async () => {
    const password = 'correct horse battery\n';
    expect(await admin(store, ['create', 'owner@shop.example', '--password-stdin'], password)).toMatchObject({
      code: 0,
      out: 'Created admin owner@shop.example (owner).\n',
    });
    expect(
      await admin(store, ['create', 'packer@shop.example', '--role', 'staff', '--password-stdin'], password),
    ).toMatchObject({ code: 0, out: 'Created admin packer@shop.example (staff).\n' });
    expect(await admin(store, ['create', 'x@shop.example', '--role', 'boss'])).toMatchObject({
      code: 2,
      out: 'Give a role: owner or staff\n',
    });

    const listed = await admin(store, ['list']);
    expect(listed.out).toMatch(/^owner@shop\.example\towner\t/m);
    expect(listed.out).toMatch(/^packer@shop\.example\tstaff\t/m);

    expect(await admin(store, ['remove', 'owner@shop.example'])).toMatchObject({
      code: 2,
      out: 'This is the last owner: make another account owner first\n',
    });
    expect(await admin(store, ['role', 'packer@shop.example', 'owner'])).toMatchObject({
      code: 0,
      out: 'packer@shop.example is now an owner.\n',
    });
    expect(await admin(store, ['remove', 'owner@shop.example'])).toMatchObject({ code: 0 });
    // The command wrote to the database the store runs on.
    expect((await listAdmins(store.handle.db)).map((a) => [a.email, a.role])).toEqual([
      ['packer@shop.example', 'owner'],
    ]);
  }, 60_000);

  it('prints an invitation link that makes the account, and resets two-factor for a lost phone', async () => {
    const printed = await admin(store, ['invite', 'new@shop.example', '--role', 'staff']);
    expect(printed.code).toBe(0);
    const token = /\/admin\/invite#([A-Za-z0-9_-]{43})$/m.exec(printed.out)?.[1];
    expect(token).toBeDefined();
    const accepted = await acceptInvite(store.handle.db, {
      token: token as string,
      passwordHash: 'scrypt$unused',
      now: new Date(),
    });
    expect(accepted).toMatchObject({ email: 'new@shop.example', role: 'staff' });

    await store.handle.db
      .updateTable('admins')
      .set({ totp_secret: 'sealed', totp_enabled_at: new Date().toISOString(), session_epoch: 4 })
      .where('id', '=', accepted.id)
      .execute();
    expect(await admin(store, ['reset-2fa', 'new@shop.example'])).toMatchObject({
      code: 0,
      out: 'Two-factor sign-in is off for new@shop.example, and their sessions are signed out.\n',
    });
    const after = await findAdminById(store.handle.db, accepted.id);
    expect([after?.twoFactor, after?.sessionEpoch]).toEqual([false, 5]);
    expect(await admin(store, ['reset-2fa', 'nobody@shop.example'])).toMatchObject({ code: 2 });
  }, 60_000);

  // The key file is the embedded database's way; on PostgreSQL the keys come from SESSION_SECRET.
  it.skipIf(process.env.TEST_DATABASE === 'postgres')(
    'rotates the session key without stranding a two-factor secret sealed with the key it drops',
    async () => {
      const db = store.handle.db;
      const invited = await admin(store, ['invite', 'totp@shop.example', '--role', 'staff']);
      const token = /\/admin\/invite#([A-Za-z0-9_-]{43})$/m.exec(invited.out)?.[1];
      await acceptInvite(db, { token: token ?? '', passwordHash: 'scrypt$unused', now: new Date() });
      expect((await admin(store, ['rotate-session-key'])).code).toBe(0);
      const sealedBy = (keys: Buffer[]) => new SecretBox(keys).seal(Buffer.from('the phone secret'));
      // Turned on under the first key, and the admin does not sign in for two rotations.
      await db
        .updateTable('admins')
        .set({
          totp_secret: sealedBy(readSessionKeyFile(store.dir)),
          totp_enabled_at: new Date().toISOString(),
        })
        .where('email', '=', 'totp@shop.example')
        .execute();
      const opens = async () => {
        const row = await db
          .selectFrom('admins')
          .select('totp_secret')
          .where('email', '=', 'totp@shop.example')
          .executeTakeFirstOrThrow();
        return new SecretBox(readSessionKeyFile(store.dir)).open(row.totp_secret ?? '')?.toString() ?? null;
      };
      expect((await admin(store, ['rotate-session-key'])).code).toBe(0);
      expect(await opens()).toBe('the phone secret');
      // This rotation drops the key the secret was sealed with: it is sealed again with the one that stays.
      const second = await admin(store, ['rotate-session-key']);
      expect(second.out).toContain('1 two-factor secret(s) sealed with the dropped key were sealed again');
      expect(second.out).toContain('the store has not been restarted since the last rotation');
      expect(readSessionKeyFile(store.dir)).toHaveLength(2);
      expect(await opens()).toBe('the phone secret');

      // Sealed with the current key (as a sign-in does): left as it is.
      const current = sealedBy(readSessionKeyFile(store.dir));
      await db
        .updateTable('admins')
        .set({ totp_secret: current })
        .where('email', '=', 'totp@shop.example')
        .execute();
      const third = await admin(store, ['rotate-session-key']);
      expect(third.out).not.toContain('sealed again');
      const kept = await db
        .selectFrom('admins')
        .select('totp_secret')
        .where('email', '=', 'totp@shop.example')
        .executeTakeFirstOrThrow();
      expect(kept.totp_secret).toBe(current);
      expect(await opens()).toBe('the phone secret');
    },
    60_000,
  );
});
