import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../test-support/s3.js';
import { LocalFileStorage } from './local-file-storage.js';
import { openFileStorage } from './open-file-storage.js';
import { S3FileStorage, StorageUnreachable } from './s3-file-storage.js';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Credentials as an operator gives them: the AWS SDK's standard variables, never the store's own. */
function awsCredentials(keys: { accessKeyId: string; secretAccessKey: string }): void {
  vi.stubEnv('AWS_ACCESS_KEY_ID', keys.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', keys.secretAccessKey);
}

describe('openFileStorage', () => {
  it('opens the data folder when no bucket is configured', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'open-storage-'));
    try {
      const storage = await openFileStorage(loadConfig({ DATA_DIR: dir }));
      expect(storage).toBeInstanceOf(LocalFileStorage);
      expect(storage.shared).toBe(false);
      await storage.put('media/a.txt', Buffer.from('x'));
      expect(await storage.exists('media/a.txt')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens the configured bucket with the credentials of the AWS variables', async () => {
    const { name } = await s3.bucket();
    awsCredentials(S3RVER_CREDENTIALS);
    const storage = await openFileStorage(loadConfig(s3.env(name)));
    try {
      expect(storage).toBeInstanceOf(S3FileStorage);
      expect(storage.shared).toBe(true);
      expect(storage.description).toBe(`S3 bucket ${name} at ${s3.endpoint}`);
      await storage.put('catalogs/a.yaml', Buffer.from('products: []\n'));
      expect((await storage.read('catalogs/a.yaml')).toString()).toBe('products: []\n');
    } finally {
      (storage as S3FileStorage).close();
    }
  });

  it('stops the start with a clear message for a missing bucket or wrong credentials', async () => {
    awsCredentials(S3RVER_CREDENTIALS);
    const missing = await openFileStorage(loadConfig(s3.env('no-such-bucket'))).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StorageUnreachable);
    expect((missing as Error).message).toBe(
      `The S3 bucket no-such-bucket does not exist at ${s3.endpoint}: create it (aws s3 mb s3://no-such-bucket, mc mb ALIAS/no-such-bucket or your provider's console) or check S3_BUCKET and S3_ENDPOINT.`,
    );

    const { name } = await s3.bucket();
    awsCredentials({ accessKeyId: 'NOT-A-KEY', secretAccessKey: 'S3RVER' });
    const refused = await openFileStorage(loadConfig(s3.env(name))).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StorageUnreachable);
    expect(String(refused)).toMatch(/403/);
  });

  it('creates a missing bucket only when asked, and says so', async () => {
    awsCredentials(S3RVER_CREDENTIALS);
    const name = `made-${Date.now().toString(36)}`;
    const notes: string[] = [];
    const storage = await openFileStorage(loadConfig(s3.env(name)), {
      createBucket: true,
      note: (line) => notes.push(line),
    });
    try {
      expect(notes).toEqual([`Created the S3 bucket ${name} at ${s3.endpoint}.`]);
      await storage.put('media/a.txt', Buffer.from('x'));
      expect(await storage.exists('media/a.txt')).toBe(true);
    } finally {
      (storage as S3FileStorage).close();
    }
    // The bucket is there now: a second open, as the store's start does, neither creates nor complains.
    const again = await openFileStorage(loadConfig(s3.env(name)), { note: (line) => notes.push(line) });
    (again as S3FileStorage).close();
    expect(notes).toHaveLength(1);
  });
});
