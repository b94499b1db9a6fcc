import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * PostgreSQL's own client tools, which backups and restores on PostgreSQL run: pg_dump writes a consistent
 * snapshot of a live database (one transaction, so the store keeps serving), pg_restore reads it back. They
 * come with the server's client package, not with npm, so a missing or mismatched one is the likeliest
 * failure: it is reported as what to install, never as a spawn error.
 */
export type PgTool = 'pg_dump' | 'pg_restore';

/** Where the tools are: a folder (POSTGRES_BIN_DIR), or null to look them up on PATH. */
export type PgTools = { binDir: string | null };

/** A tool that is missing, too old or failed; `advice` says what to install, when that is the remedy. */
export class PgToolError extends Error {
  override name = 'PgToolError';
  constructor(
    readonly problem: string,
    readonly advice: string | null = null,
  ) {
    super(advice ? `${problem}. ${advice}` : problem);
  }
}

function where(tools: PgTools): string {
  return tools.binDir ? `in ${tools.binDir} (POSTGRES_BIN_DIR)` : 'on PATH';
}

/** What to install, for the server's major version when it is known. */
export function installAdvice(serverMajor: number | null): string {
  const major = serverMajor === null ? '<server major version>' : String(serverMajor);
  return `Install the PostgreSQL client tools of the server's major version (Debian/Ubuntu: apt-get install postgresql-client-${major}) or put them on PATH, or set POSTGRES_BIN_DIR to the folder that holds them (e.g. /usr/lib/postgresql/${major}/bin).`;
}

function missingTool(tool: PgTool, tools: PgTools, serverMajor: number | null): PgToolError {
  return new PgToolError(`${tool} was not found ${where(tools)}`, installAdvice(serverMajor));
}

export type ToolRun = { stdout: string; stderr: string };

/**
 * Runs a tool to completion. `env` adds variables (the password goes there, never into the argument list,
 * which every user of the machine can read in ps). A non-zero exit throws with the tool's own message.
 */
export function runTool(
  tool: PgTool,
  args: readonly string[],
  opts: { tools: PgTools; env?: NodeJS.ProcessEnv; serverMajor?: number | null },
): Promise<ToolRun> {
  const command = opts.tools.binDir ? path.join(opts.tools.binDir, tool) : tool;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.once('error', (error: NodeJS.ErrnoException) => {
      // ENOENT: no such program; EACCES: a file of that name that cannot be run.
      if (error.code === 'ENOENT' || error.code === 'EACCES')
        reject(missingTool(tool, opts.tools, opts.serverMajor ?? null));
      else reject(error);
    });
    child.once('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0) resolve({ stdout, stderr });
      else
        reject(
          new PgToolError(
            `${tool} failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(0, 5).join(' ') || 'no message'}`,
          ),
        );
    });
  });
}

export type ToolVersion = { text: string; major: number };

/** "pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)" -> 15 (and "10.23" -> 10, "9.6.24" -> 9). */
export function parseToolVersion(output: string): ToolVersion | null {
  const match = /\(PostgreSQL\)\s+(\d+)(\.\d+)*/.exec(output);
  if (!match?.[1]) return null;
  return { text: match[0].replace(/^\(PostgreSQL\)\s+/, ''), major: Number(match[1]) };
}

export async function toolVersion(
  tool: PgTool,
  tools: PgTools,
  serverMajor: number | null = null,
): Promise<ToolVersion> {
  const { stdout } = await runTool(tool, ['--version'], { tools, serverMajor });
  const version = parseToolVersion(stdout);
  if (!version) throw new PgToolError(`${tool} --version printed something unexpected: ${stdout.trim()}`);
  return version;
}

/**
 * The tool, checked against the server: pg_dump refuses a server of a newer major version than its own
 * (and a restore of a dump needs a pg_restore at least as new as the pg_dump that wrote it).
 */
export async function requireTool(
  tool: PgTool,
  tools: PgTools,
  needs: { major: number; what: string },
): Promise<ToolVersion> {
  const version = await toolVersion(tool, tools, needs.major);
  if (version.major < needs.major)
    throw new PgToolError(
      `${tool} ${version.text} (${where(tools)}) is older than ${needs.what} (${needs.major}): ${tool} cannot work with a newer major version`,
      installAdvice(needs.major),
    );
  return version;
}

/**
 * libpq's settings for a DATABASE_URL: the URL without its password as the database name (libpq reads URLs
 * there, query parameters such as sslmode included), and the password as PGPASSWORD.
 */
export function connectionFor(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: password ? { PGPASSWORD: password } : {} };
}
