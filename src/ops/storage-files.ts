import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FileStorage, StoredFileMissing } from '../storage/file-storage.js';
import { LocalFileStorage, TEMP_NAME } from '../storage/local-file-storage.js';
import { CATALOG_PREFIX, PUBLIC_MEDIA_PREFIX } from '../storage/storage-keys.js';
import type { Manifest } from './manifest.js';

/**
 * Backups and restores of a store whose media and catalogue files live in other storage than DATA_DIR (an S3
 * bucket): the backup folder keeps the same layout (media/, catalogs/), so a backup reads the same whichever
 * storage it came from, and restores into either.
 */

const PREFIXES = [PUBLIC_MEDIA_PREFIX, CATALOG_PREFIX] as const;

/** Whether the files are DATA_DIR's own folders, which the backup and restore code copy as files. */
export function keptInDataDir(storage: FileStorage, dataDir: string): boolean {
  return storage instanceof LocalFileStorage && storage.root === path.resolve(dataDir);
}

/** Copies every media and catalogue file of `storage` into the backup folder `target`, under its key. */
export async function copyFilesFromStorage(storage: FileStorage, target: string): Promise<void> {
  for (const prefix of PREFIXES) {
    for await (const file of storage.list(prefix)) {
      if (TEMP_NAME.test(file.key)) continue;
      let data: Buffer;
      try {
        data = await storage.read(file.key);
      } catch (error) {
        if (error instanceof StoredFileMissing) continue; // deleted since the listing: gone from the store too
        throw error;
      }
      const to = path.join(target, ...file.key.split('/'));
      await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
      await writeFile(to, data, { mode: 0o600 });
    }
  }
}

/**
 * Puts a backup's media and catalogue files into `storage`, each checked against its manifest sum first.
 * Files of the storage that the backup does not have stay: uploads have unique names, so an upload made
 * after the backup is one no restored row names, and the orphan sweep removes it. Safe to repeat.
 */
export async function putBackupFilesInto(
  backupDir: string,
  manifest: Pick<Manifest, 'files'>,
  storage: FileStorage,
): Promise<number> {
  let count = 0;
  for (const file of manifest.files) {
    if (!PREFIXES.some((prefix) => file.path.startsWith(prefix))) continue;
    const data = await readFile(path.join(backupDir, ...file.path.split('/')));
    if (createHash('sha256').update(data).digest('hex') !== file.sha256)
      throw new Error(`${file.path} in ${backupDir} does not match its sha256`);
    await storage.put(file.path, data);
    count += 1;
  }
  return count;
}
