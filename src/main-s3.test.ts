import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchServer } from '../scripts/launcher/server.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from './test-support/s3.js';

/** The real entry point (src/main.ts through tsx) with S3_BUCKET set, against s3rver. */

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

const credentials = {
  AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
};

describe('main with S3 storage', () => {
  it('keeps the demo pictures in the bucket, serves them, and sweeps an old orphan upload from it', async () => {
    const { name, storage } = await s3.bucket();
    const orphan = 'media/uploads/orphan-1024.webp';
    await storage.put(orphan, Buffer.from('left by a crash'));
    await s3.setWrittenAt(name, orphan, new Date(Date.now() - 2 * 60 * 60_000));
    const young = 'media/uploads/young-1024.webp';
    await storage.put(young, Buffer.from('another process is uploading this'));

    const run = await launchServer({ entry: 'source', env: { ...s3.env(name), ...credentials } });
    try {
      const url = (await run.waitForOutput(/Store is running at (http:\S+)/, 30_000))[1] ?? '';
      expect(run.output()).toContain(`Files: S3 bucket ${name} at ${s3.endpoint}`);
      const demo: string[] = [];
      for await (const file of storage.list('media/demo/')) demo.push(file.key);
      expect(demo.length).toBeGreaterThan(10);
      // The data folder keeps its (empty, private) media/ folder, and no file lands in it.
      const local = path.join(run.dataDir, 'media');
      expect(existsSync(local) ? readdirSync(local, { recursive: true }) : []).toEqual([]);
      const picture = await fetch(`${url}${demo[0]}`);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('etag')).toMatch(/^"/);

      // The sweep runs right after listening.
      const deadline = Date.now() + 10_000;
      while ((await storage.exists(orphan)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await storage.exists(orphan)).toBe(false);
      expect(await storage.exists(young)).toBe(true);
      expect((await run.stop()).code).toBe(0);
    } finally {
      await run.stop().catch(() => undefined);
    }
  });

  it('does not start on a bucket it cannot use, and says which and why', async () => {
    const run = await launchServer({ entry: 'source', env: { ...s3.env('no-such-bucket'), ...credentials } });
    expect((await run.exited).code).toBe(1);
    expect(run.output()).toMatch(
      /Failed to start: The S3 bucket no-such-bucket does not exist at http:\/\/127\.0\.0\.1:\d+: create it \(aws s3 mb s3:\/\/no-such-bucket/,
    );
  });
});
