import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { constants, copyFile, lchown, lstat, mkdir, open, readdir } from 'node:fs/promises';
import path from 'node:path';

/** The parts of DATA_DIR a backup carries besides the database (see docs/deployment.md for the why). */
export const FILE_FOLDERS = ['media', 'catalogs'] as const;
export const DATABASE_FILE = 'store.db';
/** A PostgreSQL store's database in a backup: pg_dump's custom format (see ops/postgres/pg-dump.ts). */
export const POSTGRES_DUMP_FILE = 'database.pgdump';

/** The one file at the top of a backup: the database, in the form its engine's backups take. */
export function databaseFileOf(engine: 'sqlite' | 'postgres'): string {
  return engine === 'postgres' ? POSTGRES_DUMP_FILE : DATABASE_FILE;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every regular file under `root` as a relative POSIX path, sorted. Half-written uploads (`*.tmp`, see
 * LocalFileStorage.put) and symlinks are left out: a backup holds only whole files the store made.
 */
export async function listFiles(root: string): Promise<string[]> {
  if (!(await exists(root))) return [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.tmp'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Copies one file, making its folder; a copy-on-write clone where the file system can. */
export async function copyInto(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  await copyFile(from, to, constants.COPYFILE_FICLONE);
}

/** Flushes a file or folder to the disk (a folder's fsync makes the names in it, e.g. after rename, last). */
export async function fsyncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync of every file under `root` and of each folder, deepest first. */
export async function fsyncTree(root: string): Promise<void> {
  if (!(await exists(root))) return;
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const dirs = new Set<string>([root]);
  for (const e of entries) {
    const full = path.join(e.parentPath, e.name);
    if (e.isFile()) await fsyncPath(full);
    else if (e.isDirectory()) dirs.add(full);
  }
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await fsyncPath(dir);
}

/** "2026-11-22T10:00:00.123Z" -> "2026-11-22T100000Z": sortable, and legal in every file system. */
export function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Run as root (sudo npm run restore), new files would belong to root and the store's own user could not
 * write them: give the tree to the owner of `reference` (the data folder). A no-op for anyone else.
 */
export async function matchOwner(target: string, reference: string): Promise<void> {
  if (process.getuid?.() !== 0 || !(await exists(target))) return;
  const { uid, gid } = await lstat(reference);
  if (uid === 0) return;
  await lchown(target, uid, gid);
  if (!(await lstat(target)).isDirectory()) return;
  for (const e of await readdir(target, { recursive: true, withFileTypes: true }))
    await lchown(path.join(e.parentPath, e.name), uid, gid);
}

/**
 * The store's files (media/, catalogs/) copied into a backup folder: the part of a backup that is not the
 * database, kept behind this one function so that another kind of storage brings its own.
 */
export async function copyStoreFiles(dataDir: string, target: string): Promise<void> {
  for (const folder of FILE_FOLDERS) {
    for (const rel of await listFiles(path.join(dataDir, folder))) {
      try {
        await copyInto(path.join(dataDir, folder, rel), path.join(target, folder, rel));
      } catch (error) {
        // Deleted between listing and copying: it is gone from the store too.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
}

/** Every file of a backup folder (the database first, then the files' folders) with its size and sha256. */
export async function describeFiles(
  root: string,
  databaseName: string,
): Promise<{ files: { path: string; size: number; sha256: string }[]; bytes: number }> {
  const paths = [
    databaseName,
    ...(
      await Promise.all(
        FILE_FOLDERS.map(async (f) => (await listFiles(path.join(root, f))).map((r) => `${f}/${r}`)),
      )
    ).flat(),
  ];
  const files: { path: string; size: number; sha256: string }[] = [];
  let bytes = 0;
  for (const rel of paths) {
    const full = path.join(root, ...rel.split('/'));
    const size = (await lstat(full)).size;
    bytes += size;
    files.push({ path: rel, size, sha256: await sha256File(full) });
  }
  return { files, bytes };
}
