import path from 'node:path';
import { makePrivateDir } from '../storage/private-files.js';
import { type DataLock, lockDataDirExclusive, lockDataDirShared } from './data-lock.js';
import { FILE_FOLDERS } from './files.js';
import { removeLeftoverProbes } from './readiness.js';
import { finishInterruptedRestore, interruptedRestore } from './restore.js';

/**
 * What the server does with DATA_DIR before it opens the database: completes a restore that a crash
 * interrupted (briefly with the exclusive lock, so two servers starting at once cannot both do it), then
 * takes the shared lock it keeps until exit, which makes `npm run restore` refuse while it runs; clears the
 * /readyz write probes a killed process left behind.
 */
export async function claimDataDir(dataDir: string, note: (message: string) => void): Promise<DataLock> {
  if (await interruptedRestore(dataDir)) {
    const deadline = Date.now() + 5000;
    for (;;) {
      try {
        const exclusive = lockDataDirExclusive(dataDir);
        try {
          for (const line of await finishInterruptedRestore(dataDir)) note(line);
        } finally {
          exclusive.release();
        }
        break;
      } catch (error) {
        // Another process holds the folder: it is finishing the restore, or the shared lock below will say.
        if (Date.now() > deadline || (error as Error).name !== 'DataDirBusyError') throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  const lock = await lockDataDirShared(dataDir, { waitMs: 5000 });
  // Made here, 0700, before uploads or catalogue exports would create them with the umask's mode.
  for (const folder of FILE_FOLDERS) makePrivateDir(path.join(dataDir, folder));
  await removeLeftoverProbes(dataDir);
  return lock;
}
