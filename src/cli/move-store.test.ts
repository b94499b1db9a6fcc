import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { LocalFileStorage } from '../storage/local-file-storage.js';
import { S3FileStorage } from '../storage/s3-file-storage.js';
import { type CommandResult, storeCommand } from '../test-support/admin-command.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../test-support/postgres.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../test-support/s3.js';

const SESSION_SECRET = 'a-session-secret-of-at-least-32-characters';

/** `npm run move-to-postgres -- ARGS` in its own process, as an operator runs it: the code and what it printed. */
function moveCommand(args: string[], env: Record<string, string>): Promise<CommandResult> {
  return storeCommand('move-store', args, { env: { NODE_ENV: 'test', ...env } });
}

/** Each test runs the command in a process of its own, compiled by tsx: slow on a busy machine. */
const COMMAND_TIMEOUT = 120_000;

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

describe('npm run move-to-postgres into a bucket that does not exist yet', () => {
  let dir: string;
  let target: ThrowawayDatabase;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'move-cli-'));
    const handle = openDatabase(databaseFile(dir));
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    await new LocalFileStorage(dir).put('media/uploads/abc-640.webp', Buffer.from('an uploaded picture'));
    target = await createThrowawayDatabase('move_cli');
  });
  afterEach(async () => {
    await target.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const envFor = (bucket: string) => ({
    DATA_DIR: dir,
    DATABASE_URL: target.url,
    SESSION_SECRET,
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    ...s3.env(bucket),
  });

  it(
    'says in one line which bucket is missing, how to create it, and that --create-bucket would',
    async () => {
      const bucket = `missing-${Date.now().toString(36)}`;
      const { code, out } = await moveCommand([], envFor(bucket));
      expect(code).toBe(1);
      // Only the message is the command's own (Node may print a warning of the AWS SDK's before it).
      const lines = out.trim().split('\n');
      expect(lines.filter((line) => line.includes(bucket))).toEqual([
        `The S3 bucket ${bucket} does not exist at ${s3.endpoint}: create it (aws s3 mb s3://${bucket}, mc mb ALIAS/${bucket} or your provider's console) or check S3_BUCKET and S3_ENDPOINT. Or let the move create it: npm run move-to-postgres -- --create-bucket`,
      ]);
      expect(lines.at(-1)).toContain(bucket);
    },
    COMMAND_TIMEOUT,
  );

  it(
    'creates the bucket with --create-bucket and moves the files into it',
    async () => {
      const bucket = `created-${Date.now().toString(36)}`;
      const { code, out } = await moveCommand(['--create-bucket'], envFor(bucket));
      expect(out).toContain(`Created the S3 bucket ${bucket} at ${s3.endpoint}.`);
      expect(out).toMatch(/1 files \(0\.0 MiB\) copied to the S3 bucket/);
      expect(code).toBe(0);
      const storage = new S3FileStorage({
        bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      });
      try {
        expect((await storage.read('media/uploads/abc-640.webp')).toString()).toBe('an uploaded picture');
      } finally {
        storage.close();
      }
    },
    COMMAND_TIMEOUT,
  );

  it(
    'refuses --create-bucket without S3_BUCKET, before touching anything',
    async () => {
      const { code, out } = await moveCommand(['--create-bucket'], {
        DATA_DIR: dir,
        DATABASE_URL: target.url,
        SESSION_SECRET,
        S3_BUCKET: '',
      });
      expect(code).toBe(2);
      expect(out).toContain('--create-bucket needs S3_BUCKET');
    },
    COMMAND_TIMEOUT,
  );
});
