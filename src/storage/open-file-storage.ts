import type { Config } from '../config.js';
import type { FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { BucketMissing, S3FileStorage } from './s3-file-storage.js';

/**
 * The storage the configuration names: DATA_DIR by default, the S3 bucket with S3_BUCKET. A bucket is asked
 * once before the store starts, so a wrong name, endpoint or key is a start-up error (StorageUnreachable,
 * BucketMissing when there is no such bucket) rather than failed uploads later. Only a tool the operator asks
 * to (`createBucket`, the move's --create-bucket) creates a missing bucket; `note` then says so.
 */
export async function openFileStorage(
  config: Pick<Config, 'storage'>,
  opts: { createBucket?: boolean; note?: (line: string) => void } = {},
): Promise<FileStorage> {
  const settings = config.storage;
  if (settings.kind === 'local') return new LocalFileStorage(settings.root);
  const storage = new S3FileStorage(settings);
  try {
    try {
      await storage.checkReachable();
    } catch (error) {
      if (!(error instanceof BucketMissing && opts.createBucket)) throw error;
      await storage.createBucket();
      opts.note?.(`Created the ${storage.description}.`);
      await storage.checkReachable();
    }
  } catch (error) {
    storage.close();
    throw error;
  }
  return storage;
}
