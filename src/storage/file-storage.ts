import type { Readable } from 'node:stream';

/** A byte range of a stored file, both ends included (as HTTP's Range header counts them). */
export type ByteRange = { start: number; end: number };

/** What the storage knows about one file without reading it. */
export type StoredFileInfo = {
  size: number;
  /**
   * A strong validator in HTTP's quoted form: it changes whenever the bytes do, so /media can answer
   * If-None-Match and If-Range with it.
   */
  etag: string;
  lastModified: Date;
};

/** One file found by `list`. */
export type StoredFile = { key: string; size: number; lastModified: Date };

/** Thrown by `read` and `stream` for a key that holds no file. */
export class StoredFileMissing extends Error {
  override name = 'StoredFileMissing';
  constructor(readonly key: string) {
    super(`No stored file at ${JSON.stringify(key)}`);
  }
}

/**
 * Where uploaded media and catalogue files live: a local folder (the default) or an S3-compatible bucket
 * (S3_BUCKET; see DESIGN "Growing past one machine"). Callers never learn which: nothing outside
 * src/storage/ may reach the files by another way (a path on disk, a bucket URL).
 * Keys are relative slash-separated paths such as "media/demo/kurta.svg" (rules in storage-keys.ts); a key
 * that breaks them is refused with UnsafeStorageKey by every method, whatever the storage could hold.
 */
export interface FileStorage {
  /** For the operator (start-up banner, errors): "local folder /var/lib/x" or "S3 bucket b at …". */
  readonly description: string;
  /**
   * True when other processes may be writing to the same storage at the same time (a bucket shared by
   * several store processes). The orphan sweep then cannot rely on its own start-up listing alone.
   */
  readonly shared: boolean;
  /** Writes the whole file at once: a reader sees the old file or the new one, never part of it. */
  put(key: string, data: Buffer | Uint8Array): Promise<void>;
  read(key: string): Promise<Buffer>;
  /** The file's bytes (or one range of them, which must lie inside the file) as a stream. */
  stream(key: string, range?: ByteRange): Promise<Readable>;
  /** Size, validator and modification time; null when no file has this key. */
  stat(key: string): Promise<StoredFileInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the file; removing one that is not there is not an error. */
  remove(key: string): Promise<void>;
  /**
   * Every file whose key starts with `prefix`, in key order. Names that are not valid keys (something an
   * operator put there by hand) are left out: the store never made them and must not act on them.
   */
  list(prefix: string): AsyncIterable<StoredFile>;
}
