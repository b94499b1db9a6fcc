import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../test-support/s3.js';
import { checkStorage } from './doctor-storage.js';

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

describe('doctor: the file storage', () => {
  it('has nothing to say about the data folder, which the data-dir check covers', async () => {
    expect(await checkStorage(loadConfig({}))).toEqual([]);
  });

  it('writes, reads and deletes a probe in the bucket, leaving nothing behind', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
    const { name, storage } = await s3.bucket();
    const [result] = await checkStorage(loadConfig(s3.env(name)));
    expect(result).toMatchObject({ level: 'OK', check: 'storage' });
    expect(result?.message).toContain(`S3 bucket ${name}`);
    const left: string[] = [];
    for await (const file of storage.list('')) left.push(file.key);
    expect(left).toEqual([]);

    const [missing] = await checkStorage(loadConfig(s3.env('no-such-bucket')));
    expect(missing).toMatchObject({ level: 'FAIL', check: 'storage' });
    expect(missing?.message).toMatch(
      /^The S3 bucket no-such-bucket does not exist at http:\/\/127\.0\.0\.1:\d+: create it \(aws s3 mb s3:\/\/no-such-bucket/,
    );

    vi.stubEnv('AWS_ACCESS_KEY_ID', 'NOT-A-KEY');
    const [refused] = await checkStorage(loadConfig(s3.env(name)));
    expect(refused?.message).toMatch(/403.*Fix: check S3_BUCKET/);
  });
});
