import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { warnOnceAboutSdkNodeSupport } from '../storage/aws-sdk-node-warning.js';
import { S3FileStorage, type S3StorageOptions } from '../storage/s3-file-storage.js';

/** s3rver's built-in account: it refuses other access keys (it does not check SigV4 signatures). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export type TestS3Server = {
  endpoint: string;
  /** A new empty bucket and the S3 storage on it (closed by `close`). */
  bucket(): Promise<{ name: string; options: S3StorageOptions; storage: S3FileStorage }>;
  /**
   * Sets when an object was last written, as the bucket reports it (s3rver reads LastModified from its
   * file's mtime): tests of age rules cannot wait an hour.
   */
  setWrittenAt(bucket: string, key: string, at: Date): Promise<void>;
  /** Environment variables that make the store's configuration use this bucket. */
  env(bucket: string): Record<string, string>;
  close(): Promise<void>;
};

const CHILD = fileURLToPath(new URL('./s3rver-child.ts', import.meta.url));

/**
 * A real S3-protocol server (s3rver, in a child process: see s3rver-child.ts) on a free port, with its
 * objects in a temporary folder. The tests drive it through the real AWS SDK, so signing, path-style
 * addressing, ranges, paging and error answers are the SDK's own.
 */
export async function startS3Server(): Promise<TestS3Server> {
  // Before the first client, so the s3rver child and the tests' own clients stay quiet as well.
  warnOnceAboutSdkNodeSupport();
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '--import', 'tsx', CHILD, directory], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`s3rver exited before listening (code ${code})`)));
  });
  const { port } = z.object({ port: z.number().int().positive() }).parse(JSON.parse(firstLine));
  const endpoint = `http://127.0.0.1:${port}`;
  const admin = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  const opened: S3FileStorage[] = [];
  return {
    endpoint,
    async bucket() {
      const name = `test-${randomBytes(6).toString('hex')}`;
      await admin.send(new CreateBucketCommand({ Bucket: name }));
      const options: S3StorageOptions = {
        bucket: name,
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      };
      const storage = new S3FileStorage(options);
      opened.push(storage);
      return { name, options, storage };
    },
    async setWrittenAt(bucket, key, at) {
      const parts = key.split('/');
      const name = parts.pop() ?? '';
      const file = path.join(directory, bucket, ...parts, `${name}._S3rver_object`);
      // s3rver (in its own process) may answer the PUT a moment before its file is in place on a busy machine.
      for (let waited = 0; ; waited += 20) {
        try {
          utimesSync(file, at, at);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || waited >= 2_000) throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
    env: (bucket) => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
    }),
    async close() {
      for (const storage of opened) storage.close();
      admin.destroy();
      child.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
