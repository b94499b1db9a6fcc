import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirBusyError } from '../ops/data-lock.js';
import { BackupInvalidError } from '../ops/manifest.js';
import { restoreBackup, verifyBackup } from '../ops/restore.js';

const USAGE = `Put a backup made by npm run backup back into DATA_DIR.

Usage: npm run restore -- BACKUP_FOLDER [--yes]

Stop the store first (it refuses while a server runs on DATA_DIR). It checks the backup (manifest sums,
integrity_check, a schema no newer than this code), replaces store.db, media/ and catalogs/ and keeps what
was there in DATA_DIR/.pre-restore-<time>/. The session key stays as it is. --yes skips the question.`;

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

  const manifest = await verifyBackup(backupDir);
  console.log(
    `Backup ${backupDir}: made ${manifest.createdAt}, ${manifest.files.length} files, checks passed.`,
  );
  if (
    !argv.includes('--yes') &&
    !(await confirm(`Replace the database, media and catalogs in ${config.dataDir} with it? [y/N] `))
  ) {
    console.log('Nothing changed.');
    return 1;
  }
  const result = await restoreBackup({ backupDir, dataDir: config.dataDir });
  for (const note of result.notes) console.log(note);
  console.log(
    `Restored. What was there before is in ${result.previous} (delete it once the store looks right).`,
  );
  console.log('Start the store: migrations newer than the backup run at start.');
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known =
      error instanceof ConfigError ||
      error instanceof BackupInvalidError ||
      error instanceof DataDirBusyError;
    const text = error instanceof Error ? error.message : String(error);
    console.error(known ? `Not restored: ${text}` : `Restore failed: ${text}`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
