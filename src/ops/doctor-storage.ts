import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { BucketMissing, S3FileStorage } from '../storage/s3-file-storage.js';
import { type CheckResult, fail, ok } from './doctor-settings.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * With S3_BUCKET: the bucket answers, and these credentials may write, read and delete in it (a bucket a
 * read-only key can see passes HeadBucket, then every upload fails). The probe object is removed at once.
 * Nothing to check for DATA_DIR's folders: the data-dir check covers them.
 */
export async function checkStorage(config: Pick<Config, 'storage'>): Promise<CheckResult[]> {
  if (config.storage.kind !== 's3') return [];
  const storage = new S3FileStorage(config.storage);
  const probe = `doctor-probe/${randomBytes(8).toString('hex')}.txt`;
  try {
    await storage.checkReachable();
    await storage.put(probe, Buffer.from('npm run doctor'));
    await storage.read(probe);
    await storage.remove(probe);
    return [ok('storage', `${storage.description}: files can be written, read and deleted`)];
  } catch (error) {
    // Its message already names the bucket and how to create it.
    if (error instanceof BucketMissing) return [fail('storage', error.message)];
    return [
      fail(
        'storage',
        `${messageOf(error)}. Fix: check S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and the AWS credentials (AWS_ACCESS_KEY_ID…); the store needs s3:ListBucket, s3:GetObject, s3:PutObject and s3:DeleteObject.`,
      ),
    ];
  } finally {
    storage.close();
  }
}
