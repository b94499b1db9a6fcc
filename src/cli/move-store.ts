import { type Config, ConfigError, loadConfig } from '../config.js';
import { openPostgres } from '../db/postgres/connect-postgres.js';
import { loadSessionKeys, readSessionKeyFile } from '../modules/auth/session-keys.js';
import { SecretBox } from '../modules/auth/two-factor/secret-box.js';
import { DataDirBusyError, lockDataDirExclusive } from '../ops/data-lock.js';
import { MoveCheckFailed, MoveRefused, moveStore } from '../ops/move-store.js';
import { openFileStorage } from '../storage/open-file-storage.js';
import { BucketMissing, StorageUnreachable } from '../storage/s3-file-storage.js';
import { messageOf, runCommand } from './run-command.js';

const USAGE = `Move a SQLite store to PostgreSQL (and its files to the configured storage).

Usage: DATA_DIR=… DATABASE_URL=postgres://… SESSION_SECRET=… [S3_BUCKET=… S3_…] npm run move-to-postgres [-- --create-bucket]

Copies every table of DATA_DIR/store.db into DATABASE_URL, which must be an empty database, and every file
under DATA_DIR/media and DATA_DIR/catalogs into S3_BUCKET when it is set (it must be empty; without it the
files stay in DATA_DIR). Then checks row counts and every file's sha256. The store must be stopped. The
SQLite store is only read: it stays as it was.

  --create-bucket   create S3_BUCKET (private) when it does not exist yet`;

const CREATE_BUCKET = '--create-bucket';

async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('help')) {
    console.log(USAGE);
    return 0;
  }
  const unknown = argv.find((arg) => arg !== CREATE_BUCKET);
  if (unknown !== undefined) throw new ConfigError(`Unknown argument ${unknown}\n\n${USAGE}`);
  const createBucket = argv.includes(CREATE_BUCKET);
  const config = loadConfig();
  if (config.database.kind !== 'postgres')
    throw new ConfigError(`Set DATABASE_URL to the empty PostgreSQL database to move into.\n\n${USAGE}`);
  if (createBucket && config.storage.kind !== 's3')
    throw new ConfigError(
      `${CREATE_BUCKET} needs S3_BUCKET: without it the files stay in ${config.dataDir}.`,
    );

  // Exclusive: no store (nor backup) may write to the source while it is copied, nor start meanwhile.
  const lock = lockDataDirExclusive(config.dataDir);
  const target = openPostgres(config.database.url, 4);
  try {
    const storage = await openFileStorage(config, { createBucket, note: (line) => console.log(line) });
    const started = Date.now();
    const report = await moveStore({
      sourceDir: config.dataDir,
      target: target.db,
      storage,
      log: (line) => console.log(line),
      resealSecret: resealerFor(config),
    });
    const rows = report.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `Moved in ${((Date.now() - started) / 1000).toFixed(1)} s: ${rows} rows in ${report.tables.length} tables, row counts equal; ${report.files.count} files (${(report.files.bytes / 1024 / 1024).toFixed(1)} MiB) ${report.files.copied ? `copied to the ${storage.description}` : `left in ${config.dataDir}`}, every sha256 equal.`,
    );
    console.log(`${config.dataDir}/store.db is unchanged: keep it until the store runs well on PostgreSQL.`);
    return 0;
  } finally {
    await target.close();
    lock.release();
  }
}

/**
 * The admins' TOTP secrets were sealed with the SQLite store's session keys: its key file, or the same
 * SESSION_SECRET. They are sealed again with the keys the store will run with on PostgreSQL.
 */
function resealerFor(config: Config): (sealed: string) => string | null {
  const targetKeys = loadSessionKeys({
    secret: config.session.secret,
    previousSecrets: config.session.previousSecrets,
    dataDir: config.dataDir,
  });
  const opener = new SecretBox([...targetKeys, ...readSessionKeyFile(config.dataDir)]);
  const sealer = new SecretBox(targetKeys);
  return (sealed) => {
    const secret = opener.open(sealed);
    return secret === null ? null : sealer.seal(secret);
  };
}

runCommand(run, {
  usageErrors: [MoveRefused, DataDirBusyError],
  explain: (error, usage) =>
    error instanceof BucketMissing
      ? `${error.message} Or let the move create it: npm run move-to-postgres -- ${CREATE_BUCKET}`
      : usage || error instanceof StorageUnreachable || error instanceof MoveCheckFailed
        ? messageOf(error)
        : `Move failed: ${messageOf(error)}`,
});
