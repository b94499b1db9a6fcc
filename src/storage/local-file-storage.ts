import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  type ByteRange,
  type FileStorage,
  type StoredFile,
  type StoredFileInfo,
  StoredFileMissing,
} from './file-storage.js';
import { checkKey, checkPrefix, isSafeKey } from './storage-keys.js';

/**
 * The name `put` writes before renaming: `<file>.<pid>.<ms>.tmp`. One left behind is a write a crash cut
 * short; the orphan sweep removes them and a move to other storage leaves them out.
 */
export const TEMP_NAME = /\.\d+\.\d+\.tmp$/;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** The default storage: files under DATA_DIR, for one store process on one machine. */
export class LocalFileStorage implements FileStorage {
  readonly root: string;
  readonly shared = false;
  readonly description: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `local folder ${this.root}`;
  }

  private resolve(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Buffer | Uint8Array): Promise<void> {
    const file = this.resolve(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file and a crash leaves no torn file behind.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, data);
      await rename(temp, file);
    } catch (error) {
      // A failed write (a full disk, most often) must not leave its partial copy taking space.
      await rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.resolve(key));
    } catch (error) {
      if (isMissing(error)) throw new StoredFileMissing(key);
      throw error;
    }
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    // Opened before the stream is handed out, so a missing file is this promise's error rather than a
    // stream that fails after the caller has already sent its headers.
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.resolve(key), 'r');
    } catch (error) {
      if (isMissing(error)) throw new StoredFileMissing(key);
      throw error;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    const file = this.resolve(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      // A strong validator without reading the file: put replaces a file whole, by renaming a new one over
      // it, so new bytes always come with a new inode (and mtime), even at the same size within a millisecond.
      const etag = `"${[info.size, Math.floor(info.mtimeMs), info.ino].map((n) => n.toString(16)).join('-')}"`;
      return { size: info.size, etag, lastModified: info.mtime };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async remove(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    checkPrefix(prefix);
    // Walk the deepest folder the prefix names; the rest of the prefix filters names inside it.
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(this.root, folder), { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const keys = entries
      .filter((e) => e.isFile()) // symlinks are not files the store made
      .map((e) => path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .filter((key) => key.startsWith(prefix) && isSafeKey(key))
      .sort();
    for (const key of keys) {
      const info = await stat(path.join(this.root, key)).catch(() => null);
      if (info?.isFile()) yield { key, size: info.size, lastModified: info.mtime };
    }
  }
}
