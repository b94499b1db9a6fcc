import type { Config } from '../config.js';
import type { FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { S3FileStorage } from './s3-file-storage.js';

/**
 * The storage the configuration names: DATA_DIR by default, the S3 bucket with S3_BUCKET. A bucket is asked
 * once before the store starts, so a wrong name, endpoint or key is a start-up error (StorageUnreachable)
 * rather than failed uploads later.
 */
export async function openFileStorage(config: Pick<Config, 'storage'>): Promise<FileStorage> {
  const settings = config.storage;
  if (settings.kind === 'local') return new LocalFileStorage(settings.root);
  const storage = new S3FileStorage(settings);
  try {
    await storage.checkReachable();
  } catch (error) {
    storage.close();
    throw error;
  }
  return storage;
}
