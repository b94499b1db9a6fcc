import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { systemClock } from '../core/clock.js';
import { openStoreDatabase } from '../db/store-database.js';
import {
  AdminAccountError,
  changeRole,
  createAccount,
  removeAccount,
} from '../modules/auth/admin-accounts.js';
import {
  findAdminByEmail,
  listAdmins,
  normaliseEmail,
  setAdminPassword,
} from '../modules/auth/admins.repository.js';
import { createInvite, inviteLink } from '../modules/auth/invites/invites.js';
import { hashPassword, passwordProblem } from '../modules/auth/password.js';
import { readSessionKeyFile, rotateSessionKeyFile } from '../modules/auth/session-keys.js';
import { SecretBox } from '../modules/auth/two-factor/secret-box.js';
import { resealWithCurrentKey, resetTwoFactor } from '../modules/auth/two-factor/two-factor.service.js';
import { reconcilePendingOrders } from '../modules/orders/reconcile.js';
import { createPayments } from '../modules/payments/payments.js';
import { ADMIN_ROLES, type AdminRole } from '../shared/auth.js';
import { messageOf, runCommand } from './run-command.js';

const USAGE = `Manage the store's admin accounts.

Usage: npm run admin -- <command> [options]

  create EMAIL [--role owner|staff] [--password-stdin]
                                    create an account (asks for the password, or reads it from stdin); an
                                    owner may do everything, staff work on products, media and orders
                                    (default: owner)
  passwd EMAIL [--password-stdin]   set a new password (signs that admin out everywhere)
  role EMAIL owner|staff            change what an account may do (from its next request on)
  invite EMAIL [--role owner|staff] print a one-time link that lets EMAIL choose a password and join (7 days;
                                    default: staff)
  reset-2fa EMAIL                   turn an account's two-factor sign-in off (a lost phone) and sign it out
                                    everywhere
  list                              list the accounts with their roles and two-factor
  remove EMAIL                      delete an account (never the last owner)
  reconcile-orders                  ask Stripe about every order still waiting for payment (missed webhooks)
  rotate-session-key                put a new session key first in DATA_DIR/session.key (the old one still opens
                                    existing sessions until the next rotation; two-factor secrets sealed with
                                    the key it drops are sealed again with the current one)

The database is the server's: DATABASE_URL when set, else the SQLite file in DATA_DIR (default ./data).`;

class UsageError extends Error {}

/** Before a rotation, which keeps only the current key after the new one. */
async function resealWithCurrentKeyIn(config: ReturnType<typeof loadConfig>, keys: Buffer[]) {
  const handle = await openStoreDatabase(config);
  try {
    return await resealWithCurrentKey(handle.db, new SecretBox(keys));
  } finally {
    await handle.close();
  }
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // A trailing newline from `echo` or a file is not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks without echoing what is typed. */
function prompt(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError('No terminal to ask for a password: use --password-stdin');
  const muted = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  process.stdout.write(question);
  return new Promise((resolve) => {
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function newPassword(fromStdin: boolean): Promise<string> {
  const password = fromStdin ? await readAllStdin() : await prompt('Password: ');
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  if (!fromStdin && (await prompt('Repeat password: ')) !== password)
    throw new UsageError('The passwords do not match');
  return password;
}

const emailSchema = z.email();

function requireEmail(value: string | undefined): string {
  if (!value || !emailSchema.safeParse(value.trim()).success)
    throw new UsageError('Give a valid email address');
  return normaliseEmail(value);
}

function requireRole(value: string | undefined): AdminRole {
  const role = ADMIN_ROLES.find((r) => r === value);
  if (!role) throw new UsageError('Give a role: owner or staff');
  return role;
}

async function run(argv: string[]): Promise<number> {
  const [command, ...given] = argv;
  const fromStdin = given.includes('--password-stdin');
  const roleAt = given.indexOf('--role');
  const roleFlag = roleAt >= 0 ? requireRole(given[roleAt + 1]) : undefined;
  const rest = roleAt >= 0 ? given.filter((_, i) => i !== roleAt && i !== roleAt + 1) : given;
  const args = rest.filter((a) => !a.startsWith('--'));
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }

  const config = loadConfig();
  if (command === 'rotate-session-key') {
    if (config.session.secret)
      throw new UsageError('SESSION_SECRET is set: rotate it with SESSION_SECRET_PREVIOUS instead');
    const keys = readSessionKeyFile(config.dataDir);
    // Two-factor secrets sealed with the key this rotation drops are sealed again with the current one first.
    // The store seals them all with its current key when it starts, so any found here mean it has not been
    // restarted since the last rotation (or a leaked key is being rotated out twice, as the guide says).
    let resealed = 0;
    try {
      resealed = keys.length > 1 ? await resealWithCurrentKeyIn(config, keys) : 0;
    } catch (error) {
      // A rotation is also what to do in a hurry (a leaked key): it goes ahead, saying what it could not do.
      console.error(`Two-factor secrets could not be sealed again (${messageOf(error)}).`);
    }
    rotateSessionKeyFile(config.dataDir);
    console.log('New session key written. Restart the store to use it; current sessions stay valid.');
    if (resealed > 0) {
      console.log(
        `${resealed} two-factor secret(s) sealed with the dropped key were sealed again with the current one: the store has not been restarted since the last rotation. Restart it now; until then those admins cannot pass two-factor sign-in.`,
      );
    }
    return 0;
  }

  const handle = await openStoreDatabase(config);
  try {
    const db = handle.db;
    switch (command) {
      case 'create': {
        const email = requireEmail(args[0]);
        if (await findAdminByEmail(db, email)) throw new UsageError(`An admin ${email} already exists`);
        const password = await newPassword(fromStdin);
        const role = roleFlag ?? 'owner';
        await createAccount(db, { email, passwordHash: await hashPassword(password), role }, new Date());
        console.log(`Created admin ${email} (${role}).`);
        return 0;
      }
      case 'role': {
        const email = requireEmail(args[0]);
        const role = requireRole(args[1]);
        await changeRole(db, email, role, new Date());
        console.log(`${email} is now ${role === 'owner' ? 'an owner' : 'staff'}.`);
        return 0;
      }
      case 'passwd': {
        const email = requireEmail(args[0]);
        const admin = await findAdminByEmail(db, email);
        if (!admin) throw new UsageError(`No admin ${email}`);
        const password = await newPassword(fromStdin);
        await setAdminPassword(db, admin.id, await hashPassword(password), new Date());
        console.log(`Password changed for ${email}; their open sessions are signed out.`);
        return 0;
      }
      case 'reconcile-orders': {
        const payments = createPayments(config);
        if (payments.mode !== 'stripe')
          throw new UsageError('STRIPE_SECRET_KEY is not set: there is nothing to reconcile');
        const result = await reconcilePendingOrders({
          db,
          payments,
          clock: systemClock,
          publicUrl: config.publicUrl,
        });
        console.log(
          `Checked ${result.checked} order(s): ${result.updated} updated, ${result.failed} could not be checked.`,
        );
        return result.failed > 0 ? 1 : 0;
      }
      case 'invite': {
        const email = requireEmail(args[0]);
        const role = roleFlag ?? 'staff';
        const { token, invite } = await createInvite(db, {
          email,
          role,
          invitedBy: 'the command line',
          now: new Date(),
        });
        console.log(`Invitation for ${email} (${role}), until ${invite.expiresAt}. Send them this link:`);
        console.log(inviteLink(config.publicUrl, token));
        return 0;
      }
      case 'reset-2fa': {
        const email = requireEmail(args[0]);
        const admin = await findAdminByEmail(db, email);
        if (!admin) throw new UsageError(`No admin ${email}`);
        await resetTwoFactor(db, admin.id, new Date());
        console.log(`Two-factor sign-in is off for ${email}, and their sessions are signed out.`);
        return 0;
      }
      case 'list': {
        const admins = await listAdmins(db);
        if (admins.length === 0) console.log('No admin accounts.');
        for (const a of admins)
          console.log(
            `${a.email}\t${a.role}\t${a.twoFactor ? 'two-factor' : 'password only'}\tcreated ${a.createdAt}\tlast sign-in ${a.lastLoginAt ?? 'never'}`,
          );
        return 0;
      }
      case 'remove': {
        const email = requireEmail(args[0]);
        await removeAccount(db, email);
        console.log(`Removed admin ${email}.`);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}"\n\n${USAGE}`);
    }
  } finally {
    await handle.close();
  }
}

runCommand(run, { usageErrors: [UsageError, AdminAccountError], explain: messageOf });
