import { BackupInvalidError } from '../manifest.js';
import { compareSchema } from '../schema.js';
import { serverInfo, withOpsClient } from './pg-server.js';
import { connectionFor, PgToolError, type PgTools, requireTool, runTool } from './pg-tools.js';

/** What a PostgreSQL backup's manifest says of its database besides the migrations. */
export type DumpInfo = { serverVersion: string; dumpVersion: string };

/**
 * Writes the database DATABASE_URL names to `target` with `pg_dump --format=custom`: one repeatable-read
 * transaction, so the dump is one consistent snapshot while the store keeps serving and writing; the custom
 * format is compressed and lets pg_restore pick parts of it (dumpMigrations reads one table back).
 */
export async function dumpDatabase(
  url: string,
  target: string,
  tools: PgTools,
): Promise<DumpInfo & { migrations: string[] }> {
  const server = await withOpsClient(url, serverInfo);
  const dump = await requireTool('pg_dump', tools, { major: server.major, what: 'the server' });
  const { dbname, env } = connectionFor(url);
  await runTool('pg_dump', ['--format=custom', `--file=${target}`, '--no-password', `--dbname=${dbname}`], {
    tools,
    env,
    serverMajor: server.major,
  });
  // Read from the dump itself, not the live database: exactly the schema the backup holds.
  const migrations = await dumpMigrations(target, tools, server.major);
  return { serverVersion: server.version, dumpVersion: dump.text, migrations };
}

/** COPY's text format escapes a backslash, tab and newline; migration names have none, but be exact. */
function unescapeCopy(field: string): string {
  return field.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));
}

/**
 * The migrations recorded in a dump's kysely_migration table, sorted; none when the dump has no such table.
 * Reading them also proves that pg_restore can read the archive (its table of contents and that table).
 */
export async function dumpMigrations(
  file: string,
  tools: PgTools,
  serverMajor: number | null = null,
): Promise<string[]> {
  const { stdout } = await runTool(
    'pg_restore',
    ['--data-only', '--table=kysely_migration', '--file=-', file],
    { tools, serverMajor },
  );
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => /^COPY \S*kysely_migration\b.* FROM stdin;$/.test(l));
  if (start === -1) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    names.push(unescapeCopy(line.split('\t')[0] ?? ''));
  }
  return names.sort();
}

/**
 * Checks a backup's dump as restore will read it: a pg_restore new enough for the pg_dump that wrote it, an
 * archive it can read, the schema the manifest names, and no migration this build does not know.
 */
export async function verifyDump(
  file: string,
  expected: { migrations: readonly string[]; dumpVersion: string },
  tools: PgTools,
): Promise<void> {
  const dumpMajor = Number.parseInt(expected.dumpVersion, 10);
  await requireTool('pg_restore', tools, {
    major: dumpMajor,
    what: `the pg_dump that wrote this backup (${expected.dumpVersion})`,
  });
  let migrations: string[];
  try {
    migrations = await dumpMigrations(file, tools, dumpMajor);
  } catch (error) {
    // A tool that ran and failed (no advice to install anything): the archive is what it cannot read.
    if (error instanceof PgToolError && error.advice === null)
      throw new BackupInvalidError(`pg_restore cannot read the backup's dump: ${error.message}`);
    throw error;
  }
  if (migrations.length === 0) throw new BackupInvalidError("the backup's dump has no schema");
  if (migrations.join('\n') !== [...expected.migrations].sort().join('\n'))
    throw new BackupInvalidError("the backup's dump holds other migrations than its manifest names");
  const { unknown } = compareSchema(migrations, 'postgres');
  if (unknown.length > 0)
    throw new BackupInvalidError(
      `the backup comes from a newer version of the store (migrations this code does not know: ${unknown.join(', ')}): upgrade the store first`,
    );
}

/**
 * Replaces the database's contents with the dump's, in one transaction: either all of the backup is in,
 * or (on any error) nothing changed. --clean --if-exists drops each object of the dump before creating it;
 * --no-owner makes the connecting user the owner, so a backup restores under another role or server.
 */
export async function restoreDump(url: string, file: string, tools: PgTools): Promise<void> {
  const { dbname, env } = connectionFor(url);
  await runTool(
    'pg_restore',
    [
      '--clean',
      '--if-exists',
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-password',
      `--dbname=${dbname}`,
      file,
    ],
    { tools, env },
  );
}
