import { randomBytes } from 'node:crypto';
import { startServer } from '../scripts/launcher/server';
import { adminCommand } from '../src/test-support/admin-command';
import { createThrowawayDatabase } from '../src/test-support/postgres';
import { S3RVER_CREDENTIALS, startS3Server } from '../src/test-support/s3';
import { ensureChromium } from './support/chromium';

/**
 * E2E_DATABASE=postgres runs the journeys against a store on PostgreSQL (a throwaway database on the
 * machine's server, as the unit tests use), with the session key from SESSION_SECRET as that mode requires.
 */
async function databaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (process.env.E2E_DATABASE !== 'postgres') return { env: {}, drop: async () => {} };
  const database = await createThrowawayDatabase('store_e2e');
  return {
    env: { DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('base64url') },
    drop: () => database.drop(),
  };
}

/** E2E_STORAGE=s3 keeps media and catalogue files in a bucket of a local S3-protocol server (s3rver). */
async function storageEnv(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  if (process.env.E2E_STORAGE !== 's3') return { env: {}, close: async () => {} };
  const s3 = await startS3Server();
  const bucket = await s3.bucket();
  return {
    env: {
      ...s3.env(bucket.name),
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    close: () => s3.close(),
  };
}

export default async function globalSetup() {
  process.env.CHROMIUM_PATH = ensureChromium();
  // A throwaway admin for this run only: the password is made here and never stored in the repo.
  const adminEmail = 'e2e-owner@shop.example';
  const adminPassword = randomBytes(18).toString('base64url');
  const database = await databaseEnv();
  const storage = await storageEnv();
  // Every test signs in from 127.0.0.1; the per-IP limit is raised so the suite never trips it.
  const server = await startServer({
    entry: 'dist',
    env: {
      ...database.env,
      ...storage.env,
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      LOGIN_MAX_ATTEMPTS_PER_IP: '1000',
      // Likewise the per-address query budget and checkouts: the suite's shoppers all share one address.
      PUBLIC_QUERY_MS_PER_SECOND: '0',
      CHECKOUTS_PER_IP: '1000',
    },
    timeoutMs: 30_000,
  });
  // A staff account beside the owner, made as an operator would: with the admin command, on the same store.
  const staffEmail = 'e2e-staff@shop.example';
  const staffPassword = randomBytes(18).toString('base64url');
  const made = await adminCommand(['create', staffEmail, '--role', 'staff', '--password-stdin'], {
    stdin: staffPassword,
    env: { ...database.env, DATA_DIR: server.dataDir },
  });
  if (made.code !== 0) throw new Error(`could not create the staff account (${made.code}): ${made.out}`);
  process.env.E2E_STAFF_EMAIL = staffEmail;
  process.env.E2E_STAFF_PASSWORD = staffPassword;
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = server.dataDir;
  // The store's database, for the few tests that set up what no screen can (an old confirmation).
  if (database.env.DATABASE_URL) process.env.E2E_DATABASE_URL = database.env.DATABASE_URL;
  process.env.E2E_ADMIN_EMAIL = adminEmail;
  process.env.E2E_ADMIN_PASSWORD = adminPassword;
  // The data folder is the launcher's own: it goes with the process.
  return async () => {
    await server.stop(5_000);
    await database.drop();
    await storage.close();
  };
}
