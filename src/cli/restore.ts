import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirBusyError } from '../ops/data-lock.js';
import { BackupInvalidError, MANIFEST_FILE } from '../ops/manifest.js';
import { count } from '../ops/plural.js';
import { restoreBackup } from '../ops/restore.js';
import { listBackups } from '../ops/scheduled-backups.js';
import { messageOf, runCommand } from './run-command.js';

const USAGE = `Put a backup made by npm run backup back into DATA_DIR.

Usage: npm run restore -- BACKUP_FOLDER [--yes]
  e.g. npm run restore -- data/backups/store-20261122T030000Z   (one backup, not BACKUP_DIR itself)

Stop the store first (it refuses while a server runs on DATA_DIR). It checks the backup (manifest sums,
integrity_check, a schema no newer than this code), replaces store.db, media/ and catalogs/ and keeps what
was there in DATA_DIR/.pre-restore-<time>/. The session key stays as it is. --yes skips the question
(needed when there is no terminal to answer it on, e.g. in a script).`;

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) throw new ConfigError('No terminal to confirm on: add --yes');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

async function run(argv: string[]): Promise<number> {
  const args = argv.filter((a) => !a.startsWith('--'));
  if (argv.includes('--help') || args.length !== 1) {
    console.log(USAGE);
    return argv.includes('--help') ? 0 : 2;
  }
  const config = loadConfig();
  const backupDir = path.resolve(args[0] ?? '');
  if (!existsSync(backupDir)) throw new ConfigError(`${backupDir} does not exist`);
  // The folder of all backups (BACKUP_DIR) instead of one of them: name the newest as the example.
  const newest = existsSync(path.join(backupDir, MANIFEST_FILE)) ? null : (await listBackups(backupDir))[0];
  if (newest)
    throw new ConfigError(
      `${backupDir} holds backups; name one of them, e.g. npm run restore -- ${path.relative(process.cwd(), newest.dir) || newest.dir} (the newest)`,
    );

  const yes = argv.includes('--yes');
  // Asked by restoreBackup once it holds the folder and has checked the backup: a running store is
  // refused before anyone is asked anything.
  const result = await restoreBackup({
    backupDir,
    dataDir: config.dataDir,
    confirm: async (manifest) => {
      console.log(
        `Backup ${backupDir}: made ${manifest.createdAt}, ${count(manifest.files.length, 'file')}, checks passed.`,
      );
      return yes || confirm(`Replace the database, media and catalogs in ${config.dataDir} with it? [y/N] `);
    },
  });
  if (!result) {
    console.log('Nothing changed.');
    return 1;
  }
  for (const note of result.notes) console.log(note);
  console.log(
    `Restored. What was there before is in ${result.previous} (delete it once the store looks right).`,
  );
  console.log('Start the store: migrations newer than the backup run at start.');
  return 0;
}

runCommand(run, {
  explain: (error, usage) =>
    usage || error instanceof BackupInvalidError || error instanceof DataDirBusyError
      ? `Not restored: ${messageOf(error)}`
      : `Restore failed: ${messageOf(error)}`,
});
