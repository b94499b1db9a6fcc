import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The data folder holds customer data and the key that seals admin sessions: what the store creates in it
 * is for its own user only (folders 0700, files 0600). Modes are set with chmod after creating, because the
 * mode given to mkdir/open is filtered through the umask. What exists already keeps its mode: an operator
 * who loosened a folder on purpose is told by `npm run doctor`, not overruled at the next start.
 */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** Creates the folder (and missing parents) as 0700 when it is missing; leaves an existing one alone. */
export function makePrivateDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  chmodSync(dir, PRIVATE_DIR);
}

/** Creates an empty file as 0600 when it is missing; leaves an existing one alone. */
export function makePrivateFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'wx', PRIVATE_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  closeSync(fd);
  chmodSync(file, PRIVATE_FILE);
}

/**
 * Before SQLite creates the store's database: an empty file is a valid empty database, and SQLite gives the
 * -wal and -shm files it makes later the database file's mode, so all three are 0600. A new database also
 * makes its folder the store's data folder, 0700 even if something else made it first (git creates ./data
 * as 0755, because the demo catalogue ships in data/demo/). A folder owned by someone else stays as it is.
 */
export function prepareDatabaseFile(file: string): void {
  if (existsSync(file)) return;
  const dir = path.dirname(file);
  makePrivateDir(dir);
  try {
    chmodSync(dir, PRIVATE_DIR);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
  makePrivateFile(file);
}

/** Every folder under `root` (itself included) 0700, every file 0600: for a backup the store just wrote. */
export function makeTreePrivate(root: string): void {
  chmodSync(root, PRIVATE_DIR);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(full, PRIVATE_DIR);
    else if (entry.isFile()) chmodSync(full, PRIVATE_FILE);
  }
}
