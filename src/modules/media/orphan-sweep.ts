import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { containsText, likeNoCase } from '../../db/engine-sql.js';
import { type FileStorage, StoredFileMissing } from '../../storage/file-storage.js';
import { TEMP_NAME } from '../../storage/local-file-storage.js';
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
 * - On storage other processes write to as well (an S3 bucket shared by several store processes), their
 *   uploads in progress are in that listing too: there a file must also be SHARED_GRACE_MS old.
 * - A file counts as used when any media row names it, or when the settings banner, a product's legacy
 *   image list, an order line or any catalogue file on disk mentions it (versions can restore uploads).
 * - Banner pictures are saved in the settings only when the admin clicks Save after uploading, which
 *   may be across a restart: unreferenced ones are kept for BANNER_GRACE_MS after they were written.
 * - Right before deleting, the media table is asked again, in case a row naming the file just committed.
 */

/** How long an uploaded banner picture may wait for the settings form to be saved. */
export const BANNER_GRACE_MS = 24 * 60 * 60_000;
/**
 * How old a file in shared storage must be before it can count as an orphan: far longer than an upload
 * takes from its first file to its row (seconds to minutes), with room for the bucket's clock to differ.
 */
export const SHARED_GRACE_MS = 60 * 60_000;
/** An upload key inside any text (the prefix has no regular-expression characters). */
const UPLOAD_KEY = new RegExp(`${UPLOADS_PREFIX}[A-Za-z0-9][A-Za-z0-9._-]*`, 'g');
/** Where LocalFileStorage.put writes, hence where its temporary files can be left. */
const TEMP_DIRS = [UPLOADS_PREFIX, 'media/demo/', CATALOG_PREFIX];

/** A file the snapshot found, with when it was last written (ms since the epoch, the storage's clock). */
export type SnapshotFile = { key: string; writtenAt: number };

export type UploadSnapshot = {
  storage: FileStorage;
  /** Files directly under media/uploads/ that existed when the snapshot was taken. */
  uploads: SnapshotFile[];
  /** Temporary files of interrupted writes, in any folder storage writes to. */
  temps: SnapshotFile[];
};

export type SweepResult = { removed: string[]; temps: number; kept: number };

/** The files directly in a folder of the storage (not in folders below it). */
async function filesIn(storage: FileStorage, prefix: string): Promise<SnapshotFile[]> {
  const files: SnapshotFile[] = [];
  for await (const file of storage.list(prefix)) {
    if (!file.key.slice(prefix.length).includes('/'))
      files.push({ key: file.key, writtenAt: file.lastModified.getTime() });
  }
  return files;
}

/** Lists the candidates; call it before the server listens (see the rules above). */
export async function snapshotUploads(storage: FileStorage): Promise<UploadSnapshot> {
  const uploads: SnapshotFile[] = [];
  const temps: SnapshotFile[] = [];
  for (const prefix of TEMP_DIRS) {
    for (const file of await filesIn(storage, prefix)) {
      if (TEMP_NAME.test(file.key)) temps.push(file);
      else if (prefix === UPLOADS_PREFIX) uploads.push(file);
    }
  }
  return { storage, uploads, temps };
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
          containsText(db, sql.ref('variants'), key),
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
async function* mentioningTexts(
  db: DbOrTx,
  storage: FileStorage,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const like = `%${UPLOADS_PREFIX}%`;
  const banner = await readBannerImageUrl(db);
  if (banner) yield banner;
  // A wider net than needed (ignores case) is harmless: only the exact keys found in the text count.
  for (const r of await db
    .selectFrom('products')
    .select('images')
    .where(likeNoCase(db, sql.ref('images'), like))
    .execute())
    yield r.images;
  for (const r of await db
    .selectFrom('order_lines')
    .select('image_url')
    .where('image_url', 'like', like)
    .execute())
    if (r.image_url) yield r.image_url;
  // One catalogue file at a time (each up to 20 MB): versions can restore uploaded media.
  for (const { key } of await filesIn(storage, CATALOG_PREFIX)) {
    if (signal?.aborted || TEMP_NAME.test(key)) continue;
    // Gone since it was listed (a version deleted meanwhile): it mentions nothing any more.
    const text = await storage.read(key).catch((error: unknown) => {
      if (error instanceof StoredFileMissing) return null;
      throw error;
    });
    if (text) yield text.toString('utf8');
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
  const { storage } = snapshot;
  const oldEnough = (file: SnapshotFile) =>
    !storage.shared || now.getTime() - file.writtenAt >= SHARED_GRACE_MS;
  const remove = async (key: string): Promise<boolean> => {
    try {
      await storage.remove(key);
      return true;
    } catch (error) {
      log?.warn({ err: error, key }, 'orphan sweep: could not remove a file');
      return false;
    }
  };

  let temps = 0;
  for (const file of snapshot.temps.filter(oldEnough)) {
    if (signal?.aborted) break;
    if (await remove(file.key)) temps += 1;
  }

  const owned = await keysOfMediaRows(db);
  let candidates = snapshot.uploads.filter((file) => oldEnough(file) && !owned.has(file.key));
  if (candidates.length > 0 && !signal?.aborted) {
    for await (const text of mentioningTexts(db, storage, signal)) {
      const mentioned = mentionedKeys(text);
      candidates = candidates.filter((file) => !mentioned.has(file.key));
      if (candidates.length === 0) break;
    }
  }
  const due = candidates
    .filter(
      (file) =>
        !path.posix.basename(file.key).startsWith('banner-') ||
        now.getTime() - file.writtenAt >= BANNER_GRACE_MS,
    )
    .map((file) => file.key);

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
