import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirBusyError } from '../ops/data-lock.js';
import { BackupInvalidError, MANIFEST_FILE } from '../ops/manifest.js';
import { count } from '../ops/plural.js';
import { describeUrl } from '../ops/postgres/pg-server.js';
import { PgToolError } from '../ops/postgres/pg-tools.js';
import { type RestoreResult, restoreBackup } from '../ops/restore.js';
import { RestoreRefusedError, restorePostgresBackup } from '../ops/restore-postgres.js';
import { listBackups } from '../ops/scheduled-backups.js';
import { putBackupFilesInto } from '../ops/storage-files.js';
import { openFileStorage } from '../storage/open-file-storage.js';
import { StorageUnreachable } from '../storage/s3-file-storage.js';
import { messageOf, runCommand } from './run-command.js';

const USAGE = `Put a backup made by npm run backup back into DATA_DIR.

Usage: npm run restore -- BACKUP_FOLDER [--yes]
  e.g. npm run restore -- data/backups/store-20261122T030000Z   (one backup, not BACKUP_DIR itself)

Stop the store first (it refuses while a server runs on DATA_DIR). It checks the backup (manifest sums,
integrity_check, a schema no newer than this code), replaces store.db, media/ and catalogs/ and keeps what
was there in DATA_DIR/.pre-restore-<time>/. The session key stays as it is. --yes skips the question
(needed when there is no terminal to answer it on, e.g. in a script).

With DATABASE_URL (PostgreSQL): stop every store process on every machine first (it refuses while any is
connected to the database). The dump goes in with pg_restore --clean --if-exists --single-transaction
--no-owner: all of it or, on any error, nothing. A backup restores only into the engine it was made from.`;

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
  const database = config.database;
  // Opened first: a bucket that cannot be used refuses the restore before anything changes.
  const storage = await openFileStorage(config);
  const inBucket = config.storage.kind === 's3';
  const files = inBucket ? `the media and catalogs in the ${storage.description}` : null;
  const target =
    database.kind === 'postgres'
      ? `the PostgreSQL database ${describeUrl(database.url)}, and ${files ?? `the media and catalogs in ${config.dataDir}`}`
      : files
        ? `the database in ${config.dataDir} and ${files}`
        : `the database, media and catalogs in ${config.dataDir}`;
  // Asked once the folder is held and the backup checked: a running store is refused before any question.
  const ask = async (manifest: { createdAt: string; files: unknown[] }) => {
    console.log(
      `Backup ${backupDir}: made ${manifest.createdAt}, ${count(manifest.files.length, 'file')}, checks passed.`,
    );
    return yes || confirm(`Replace ${target} with it? [y/N] `);
  };
  const result: RestoreResult | null =
    database.kind === 'postgres'
      ? await restorePostgresBackup({
          backupDir,
          dataDir: config.dataDir,
          url: database.url,
          tools: { binDir: config.postgresBinDir },
          confirm: ask,
        })
      : await restoreBackup({ backupDir, dataDir: config.dataDir, confirm: ask });
  if (!result) {
    console.log('Nothing changed.');
    return 1;
  }
  for (const note of result.notes) console.log(note);
  if (inBucket) {
    // The database is restored; now its files. Running the same restore again finishes an interrupted one.
    const put = await putBackupFilesInto(backupDir, result.manifest, storage);
    console.log(`Put ${count(put, 'file')} back into the ${storage.description}.`);
  }
  console.log(
    `Restored. What was there before is in ${result.previous} (delete it once the store looks right).`,
  );
  console.log('Start the store: migrations newer than the backup run at start.');
  return 0;
}

runCommand(run, {
  explain: (error, usage) =>
    usage ||
    error instanceof BackupInvalidError ||
    error instanceof DataDirBusyError ||
    error instanceof RestoreRefusedError ||
    // Opened before anything is restored.
    error instanceof StorageUnreachable ||
    // pg_restore runs in one transaction: when it fails, the database is as it was.
    error instanceof PgToolError
      ? `Not restored: ${messageOf(error)}`
      : `Restore failed: ${messageOf(error)}`,
});
