import type { Config } from '../../config.js';
import { type CheckResult, fail, ok, warn } from '../doctor-settings.js';
import { count } from '../plural.js';
import { compareSchema } from '../schema.js';
import {
  appliedPostgresMigrations,
  describeUrl,
  type ServerInfo,
  serverInfo,
  storeConnections,
  withOpsClient,
} from './pg-server.js';
import { PgToolError, type PgTools, requireTool } from './pg-tools.js';

type Reached = { server: ServerInfo; applied: string[]; connections: number };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function databaseResult(where: string, reached: Reached): CheckResult {
  const { server, applied, connections } = reached;
  const at = `PostgreSQL ${server.version} at ${where}`;
  const { pending, unknown } = compareSchema(applied, 'postgres');
  if (unknown.length > 0)
    return fail(
      'database',
      `${at} has migrations this code does not know (${unknown.join(', ')}): it was used by a newer version. Fix: deploy that version again.`,
    );
  if (applied.length === 0)
    return warn(
      'database',
      `${at} answers but holds no schema yet. Fix: start the store (it migrates at start) or run npm run db:migrate; check DATABASE_URL if the store has run before.`,
    );
  if (pending.length > 0)
    return warn(
      'database',
      `${at}: ${count(pending.length, 'migration')} will run at the next start (${pending.join(', ')}). Fix: take a backup first (npm run backup).`,
    );
  const users =
    connections === 0
      ? 'no store process connected'
      : `${count(connections, 'connection')} from store processes`;
  return ok('database', `${at}, schema current (${count(applied.length, 'migration')}), ${users}`);
}

/**
 * pg_dump and pg_restore of at least the server's major version: without them `npm run backup` fails, and so
 * do scheduled backups (a FAIL then; otherwise a WARN).
 */
async function checkTools(config: Config, tools: PgTools, serverMajor: number | null): Promise<CheckResult> {
  const level = config.backups.intervalHours > 0 ? fail : warn;
  const needs = { major: serverMajor ?? 0, what: 'the server' };
  try {
    const dump = await requireTool('pg_dump', tools, needs);
    const restore = await requireTool('pg_restore', tools, needs);
    return ok(
      'pg-tools',
      `pg_dump ${dump.text} and pg_restore ${restore.text}${serverMajor ? ` (server ${serverMajor})` : ''}`,
    );
  } catch (error) {
    const advice = error instanceof PgToolError && error.advice ? ` Fix: ${error.advice}` : '';
    const problem = error instanceof PgToolError ? error.problem : messageOf(error);
    return level('pg-tools', `backups cannot run: ${problem}.${advice}`);
  }
}

/** Doctor's checks of a PostgreSQL store: the connection, server version, schema, and the backup tools. */
export async function checkPostgres(config: Config, url: string): Promise<CheckResult[]> {
  const where = describeUrl(url);
  const tools = { binDir: config.postgresBinDir };
  let reached: Reached;
  try {
    reached = await withOpsClient(url, async (client) => ({
      server: await serverInfo(client),
      applied: await appliedPostgresMigrations(client),
      connections: await storeConnections(client),
    }));
  } catch (error) {
    return [
      fail(
        'database',
        `cannot reach PostgreSQL at ${where}: ${messageOf(error)}. Fix: check DATABASE_URL and that the server runs and accepts this user (pg_isready -h <host> -p <port>).`,
      ),
      await checkTools(config, tools, null),
    ];
  }
  return [databaseResult(where, reached), await checkTools(config, tools, reached.server.major)];
}
