import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DATABASE_FILE, databaseFileOf, FILE_FOLDERS, POSTGRES_DUMP_FILE, sha256File } from './files.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'storefront-backup/1';

/** Only the database and files under the backed-up folders; never an absolute path or a "..". */
const safeRelativePath = z
  .string()
  .min(1)
  .max(1024)
  .refine(
    (p) =>
      (p === DATABASE_FILE || p === POSTGRES_DUMP_FILE || FILE_FOLDERS.some((f) => p.startsWith(`${f}/`))) &&
      !p.split('/').some((part) => part === '' || part === '.' || part === '..') &&
      !p.includes('\\'),
    `must be ${DATABASE_FILE}, ${POSTGRES_DUMP_FILE} or a file under media/ or catalogs/`,
  );

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  createdAt: z.iso.datetime(),
  /** manual (npm run backup) or scheduled (the server's own; only these are pruned). */
  kind: z.enum(['manual', 'scheduled']),
  /** The engine the database came from; backups made before PostgreSQL have none and are SQLite's. */
  engine: z.enum(['sqlite', 'postgres']).default('sqlite'),
  /** PostgreSQL only: the server the dump was taken from and the pg_dump that took it. */
  postgres: z.object({ serverVersion: z.string().max(200), dumpVersion: z.string().max(200) }).optional(),
  schema: z.object({ migrations: z.array(z.string()), latest: z.string().nullable() }),
  files: z.array(
    z.object({
      path: safeRelativePath,
      size: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = Manifest['files'][number];

export class BackupInvalidError extends Error {
  override name = 'BackupInvalidError';
}

export async function readManifest(backupDir: string): Promise<Manifest> {
  let raw: string;
  try {
    raw = await readFile(path.join(backupDir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupInvalidError(`${backupDir} has no ${MANIFEST_FILE}: not a backup made by npm run backup`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new BackupInvalidError(`${MANIFEST_FILE} is not valid JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupInvalidError(
      `${MANIFEST_FILE} is not valid: ${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const database = databaseFileOf(parsed.data.engine);
  const top = parsed.data.files.filter((f) => !f.path.includes('/')).map((f) => f.path);
  if (!top.includes(database)) throw new BackupInvalidError(`${MANIFEST_FILE} lists no ${database}`);
  // A dump beside a SQLite file (or the reverse) would be carried into DATA_DIR or ignored: neither is right.
  if (top.length !== 1)
    throw new BackupInvalidError(`${MANIFEST_FILE} lists ${top.join(' and ')}: one database per backup`);
  if (parsed.data.engine === 'postgres' && !parsed.data.postgres)
    throw new BackupInvalidError(`${MANIFEST_FILE} does not say which PostgreSQL the dump came from`);
  if (new Set(parsed.data.files.map((f) => f.path)).size !== parsed.data.files.length)
    throw new BackupInvalidError(`${MANIFEST_FILE} lists a file twice`);
  return parsed.data;
}

/** Checks that each listed file under `root` has the manifest's size and sha256; throws on the first miss. */
export async function verifyFiles(root: string, files: readonly ManifestFile[]): Promise<void> {
  const realRoot = await realpath(root);
  for (const file of files) {
    const full = path.join(root, ...file.path.split('/'));
    let size: number;
    try {
      // …nor a symlinked folder on the way.
      if (!(await realpath(full)).startsWith(realRoot + path.sep)) throw new Error('outside the backup');
      // lstat: a symlink planted in a backup must not pull some other file of this machine into media/.
      const info = await lstat(full);
      if (!info.isFile()) throw new Error('not a regular file');
      size = info.size;
    } catch {
      throw new BackupInvalidError(`${file.path} is missing from the backup (or not a regular file)`);
    }
    if (size !== file.size)
      throw new BackupInvalidError(
        `${file.path} has ${size} bytes, the manifest says ${file.size}: damaged or changed`,
      );
    if ((await sha256File(full)) !== file.sha256)
      throw new BackupInvalidError(
        `${file.path} does not match its sha256 in the manifest: damaged or changed`,
      );
  }
}

const ENGINE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
const CONFIGURED = {
  sqlite: 'SQLite (DATABASE_URL is not set)',
  postgres: 'PostgreSQL (DATABASE_URL is set)',
} as const;

/**
 * A backup restores only into the engine it was made from: a SQLite file means nothing to PostgreSQL, nor a
 * dump to SQLite. Refuses the other engine's backup, saying which is which.
 */
export function requireEngine(manifest: Manifest, engine: 'sqlite' | 'postgres'): void {
  if (manifest.engine === engine) return;
  const advice =
    manifest.engine === 'postgres'
      ? 'set DATABASE_URL to the PostgreSQL database to restore it into'
      : 'unset DATABASE_URL to restore it into a SQLite store';
  throw new BackupInvalidError(
    `this is a backup of a ${ENGINE_NAMES[manifest.engine]} store, and this store is configured for ${CONFIGURED[engine]}: a backup restores only into the engine it was made from (${advice}).`,
  );
}
