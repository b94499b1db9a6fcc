import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/database.js';
import { CATALOG_PREFIX, UPLOADS_PREFIX } from '../../storage/storage-keys.js';
import { readBannerImageUrl } from '../settings/settings.repository.js';
import { storageKeysOf } from './media.repository.js';

/**
 * Start-up sweep of uploaded files that nothing names. An upload writes its files before the row naming
 * them commits (http/media-uploads.ts), so a crash between the two (kill -9, power loss, OOM) leaves files
 * no row points at; LocalFileStorage.put can leave its temporary file the same way. Nothing else ever
 * deletes them, so they would only take space.
 *
 * Safety rules, since deleting a file someone still needs is far worse than keeping an orphan:
 * - Only files listed before the server accepted its first request are considered (`snapshotUploads`),
 *   so a file an upload of this process is writing right now is never touched, whatever the clock says.
 * - A file counts as used when any media row names it, or when the settings banner, a product's legacy
 *   image list, an order line or any catalogue file on disk mentions it (versions can restore uploads).
 * - Banner pictures are saved in the settings only when the admin clicks Save after uploading, which
 *   may be across a restart: unreferenced ones are kept for BANNER_GRACE_MS after they were written.
 * - Right before deleting, the media table is asked again, in case a row naming the file just committed.
 */

/** How long an uploaded banner picture may wait for the settings form to be saved. */
export const BANNER_GRACE_MS = 24 * 60 * 60_000;
/** LocalFileStorage.put's temporary name: `<file>.<pid>.<ms>.tmp`. */
const TEMP_FILE = /\.\d+\.\d+\.tmp$/;
/** An upload key inside any text (the prefix has no regular-expression characters). */
const UPLOAD_KEY = new RegExp(`${UPLOADS_PREFIX}[A-Za-z0-9][A-Za-z0-9._-]*`, 'g');
/** Where LocalFileStorage.put writes, hence where its temporary files can be left. */
const TEMP_DIRS = [UPLOADS_PREFIX, 'media/demo/', CATALOG_PREFIX];

export type UploadSnapshot = {
  root: string;
  /** Keys under media/uploads/ that existed when the snapshot was taken. */
  uploads: string[];
  /** Temporary files of interrupted writes, in any folder storage writes to. */
  temps: string[];
};

export type SweepResult = { removed: string[]; temps: number; kept: number };

async function fileNames(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Lists the candidates; call it before the server listens (see the rules above). */
export async function snapshotUploads(root: string): Promise<UploadSnapshot> {
  const uploads: string[] = [];
  const temps: string[] = [];
  for (const prefix of TEMP_DIRS) {
    for (const name of await fileNames(path.join(root, prefix))) {
      const key = `${prefix}${name}`;
      if (TEMP_FILE.test(name)) temps.push(key);
      else if (prefix === UPLOADS_PREFIX) uploads.push(key);
    }
  }
  return { root, uploads, temps };
}

/** The upload keys media rows own, read exactly (main file, variants, and a URL into our uploads). */
async function keysOfMediaRows(db: DbOrTx, keys?: readonly string[]): Promise<Set<string>> {
  let query = db
    .selectFrom('media')
    .select(['storage_key', 'variants', 'url'])
    .where((eb) => eb.or([eb('storage_key', 'is not', null), eb('url', 'like', `/${UPLOADS_PREFIX}%`)]));
  if (keys) {
    query = query.where((eb) =>
      eb.or(
        keys.flatMap((key) => [
          eb('storage_key', '=', key),
          eb('url', '=', `/${key}`),
          eb(eb.fn('instr', ['variants', eb.val(key)]), '>', 0),
        ]),
      ),
    );
  }
  const owned = new Set<string>();
  for (const row of await query.execute()) {
    for (const key of storageKeysOf(row)) owned.add(key);
    if (row.url.startsWith(`/${UPLOADS_PREFIX}`)) owned.add(row.url.slice(1));
  }
  return owned;
}

/** Text that may mention upload keys without owning them; only read when there are candidates. */
async function* mentioningTexts(db: DbOrTx, root: string, signal?: AbortSignal): AsyncGenerator<string> {
  const like = `%${UPLOADS_PREFIX}%`;
  const banner = await readBannerImageUrl(db);
  if (banner) yield banner;
  for (const r of await db.selectFrom('products').select('images').where('images', 'like', like).execute())
    yield r.images;
  for (const r of await db
    .selectFrom('order_lines')
    .select('image_url')
    .where('image_url', 'like', like)
    .execute())
    if (r.image_url) yield r.image_url;
  // One catalogue file at a time (each up to 20 MB): versions can restore uploaded media.
  for (const name of await fileNames(path.join(root, CATALOG_PREFIX))) {
    if (signal?.aborted || TEMP_FILE.test(name)) continue;
    yield await readFile(path.join(root, CATALOG_PREFIX, name), 'utf8');
  }
}

/**
 * The upload keys a text mentions. A set rather than `text.includes(key)` per candidate: after overwrite
 * imports there can be thousands of candidates against megabytes of YAML. A key followed by more name
 * characters (a full stop ending a sentence) is also recorded without them, so it is never missed.
 */
function mentionedKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const [match] of text.matchAll(UPLOAD_KEY)) {
    keys.add(match);
    keys.add(match.replace(/[._-]+$/, ''));
  }
  return keys;
}

async function mtimeMs(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Removes the snapshot's unreferenced upload files and leftover temporary files. Never throws for one
 * file: a failure is logged and the file kept. Stops early when `signal` aborts (shutdown).
 */
export async function sweepOrphanUploads(deps: {
  db: DbOrTx;
  snapshot: UploadSnapshot;
  now: Date;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  signal?: AbortSignal;
}): Promise<SweepResult> {
  const { db, snapshot, now, log, signal } = deps;
  const remove = async (key: string): Promise<boolean> => {
    try {
      await rm(path.join(snapshot.root, key), { force: true });
      return true;
    } catch (error) {
      log?.warn({ err: error, key }, 'orphan sweep: could not remove a file');
      return false;
    }
  };

  let temps = 0;
  for (const key of snapshot.temps) {
    if (signal?.aborted) break;
    if (await remove(key)) temps += 1;
  }

  const owned = await keysOfMediaRows(db);
  let candidates = snapshot.uploads.filter((key) => !owned.has(key));
  if (candidates.length > 0 && !signal?.aborted) {
    for await (const text of mentioningTexts(db, snapshot.root, signal)) {
      const mentioned = mentionedKeys(text);
      candidates = candidates.filter((key) => !mentioned.has(key));
      if (candidates.length === 0) break;
    }
  }
  const due: string[] = [];
  for (const key of candidates) {
    if (!path.posix.basename(key).startsWith('banner-')) {
      due.push(key);
      continue;
    }
    const written = await mtimeMs(path.join(snapshot.root, key));
    if (written !== null && now.getTime() - written >= BANNER_GRACE_MS) due.push(key);
  }

  const removed: string[] = [];
  // Asked again just before deleting, in small groups, for rows that committed since the first read.
  for (let i = 0; i < due.length && !signal?.aborted; i += 50) {
    const group = due.slice(i, i + 50);
    const claimed = await keysOfMediaRows(db, group);
    for (const key of group) if (!claimed.has(key) && (await remove(key))) removed.push(key);
  }
  const result = { removed, temps, kept: snapshot.uploads.length - removed.length };
  if (removed.length > 0 || temps > 0) {
    log?.info(
      { event: 'media.orphans.removed', files: removed.length, temps, sample: removed.slice(0, 10) },
      `removed ${removed.length} unreferenced upload file(s) and ${temps} temporary file(s) left by an interrupted write`,
    );
  }
  return result;
}
