import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { BackupError, createBackup } from '../ops/backup.js';
import { DataDirBusyError } from '../ops/data-lock.js';
import { BackupInvalidError } from '../ops/manifest.js';
import { count } from '../ops/plural.js';
import { PgToolError } from '../ops/postgres/pg-tools.js';
import { verifyBackup } from '../ops/restore.js';
import { listBackups } from '../ops/scheduled-backups.js';
import { openFileStorage } from '../storage/open-file-storage.js';
import { messageOf, runCommand } from './run-command.js';

const USAGE = `Back up the store: a consistent copy of the database (SQLite: online backup, checked with
integrity_check; PostgreSQL with DATABASE_URL: pg_dump --format=custom, read back by pg_restore) plus media/
and catalogs/, with a manifest of sha256 sums. Safe while the store runs.

Usage: npm run backup [-- options]

  (no options)      write a new backup into BACKUP_DIR (default DATA_DIR/backups)
  --to DIR          write it into DIR instead
  --list            list the backups in BACKUP_DIR, newest first
  --verify DIR      check a backup (sums, integrity, schema) without restoring it

PostgreSQL backups need pg_dump and pg_restore of the server's major version (postgresql-client-<major>),
on PATH or in POSTGRES_BIN_DIR. The session key is not backed up (see docs/deployment.md). Restore with
npm run restore -- DIR.`;

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('help')) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  const tools = { binDir: config.postgresBinDir };
  const folderAfter = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i === -1) return null;
    const value = argv[i + 1];
    if (!value || value.startsWith('--')) throw new ConfigError(`${flag} needs a folder\n\n${USAGE}`);
    return path.resolve(value);
  };

  if (argv.includes('--list')) {
    const backups = await listBackups(config.backups.dir);
    if (backups.length === 0) console.log(`No backups in ${config.backups.dir}.`);
    for (const b of backups) {
      const bytes = b.manifest.files.reduce((sum, f) => sum + f.size, 0);
      console.log(
        `${b.dir}\t${b.manifest.createdAt}\t${b.manifest.kind}\t${count(b.manifest.files.length, 'file')}\t${mib(bytes)}`,
      );
    }
    return 0;
  }
  const toVerify = folderAfter('--verify');
  if (toVerify) {
    const manifest = await verifyBackup(toVerify, { tools });
    const database =
      manifest.engine === 'postgres'
        ? `pg_restore reads the PostgreSQL dump (server ${manifest.postgres?.serverVersion ?? 'unknown'})`
        : 'the database passes integrity_check';
    console.log(
      `OK: ${toVerify} (made ${manifest.createdAt}): ${count(manifest.files.length, 'file')} ${manifest.files.length === 1 ? 'matches its sum' : 'match their sums'}, ${database}, schema ${manifest.schema.latest ?? 'empty'}.`,
    );
    return 0;
  }
  const extra = argv.filter((a, i) => a !== '--to' && argv[i - 1] !== '--to');
  if (extra.length > 0) throw new ConfigError(`Unknown argument ${extra[0]}\n\n${USAGE}`);

  const started = Date.now();
  const result = await createBackup({
    dataDir: config.dataDir,
    backupRoot: folderAfter('--to') ?? config.backups.dir,
    kind: 'manual',
    database: config.database,
    tools,
    // Media and catalogue files from wherever they live (DATA_DIR, or the S3 bucket).
    storage: await openFileStorage(config),
  });
  const checked =
    result.manifest.engine === 'postgres'
      ? `The database was dumped with pg_dump ${result.manifest.postgres?.dumpVersion ?? ''} and reads back.`
      : 'The database copy passed integrity_check.';
  console.log(
    `Backup written to ${result.dir}: ${count(result.manifest.files.length, 'file')}, ${mib(result.bytes)}, in ${((Date.now() - started) / 1000).toFixed(1)} s. ${checked}`,
  );
  console.log('Copy it off this machine too: a backup on the same disk dies with it.');
  return 0;
}

runCommand(run, {
  explain: (error, usage) =>
    usage ||
    error instanceof BackupError ||
    error instanceof BackupInvalidError ||
    error instanceof DataDirBusyError ||
    error instanceof PgToolError
      ? messageOf(error)
      : `Backup failed: ${messageOf(error)}`,
});
