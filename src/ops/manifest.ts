import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DATABASE_FILE, FILE_FOLDERS, sha256File } from './files.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'storefront-backup/1';

/** Only the database and files under the backed-up folders; never an absolute path or a "..". */
const safeRelativePath = z
  .string()
  .min(1)
  .max(1024)
  .refine(
    (p) =>
      (p === DATABASE_FILE || FILE_FOLDERS.some((f) => p.startsWith(`${f}/`))) &&
      !p.split('/').some((part) => part === '' || part === '.' || part === '..') &&
      !p.includes('\\'),
    'must be store.db or a file under media/ or catalogs/',
  );

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  createdAt: z.iso.datetime(),
  /** manual (npm run backup) or scheduled (the server's own; only these are pruned). */
  kind: z.enum(['manual', 'scheduled']),
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
  if (!parsed.data.files.some((f) => f.path === DATABASE_FILE))
    throw new BackupInvalidError(`${MANIFEST_FILE} lists no ${DATABASE_FILE}`);
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
