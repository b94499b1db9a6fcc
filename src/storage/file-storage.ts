import type { Readable } from 'node:stream';

/**
 * Where uploaded media and catalogue files live. The local folder implementation is the default; an
 * S3-compatible one can replace it without touching callers (see DESIGN "Growing past one machine").
 * Keys are relative slash-separated paths such as "media/demo/kurta.svg".
 */
export interface FileStorage {
  put(key: string, data: Buffer | Uint8Array): Promise<void>;
  read(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** The local folder behind the keys, where one exists (used to serve /media with sendfile). */
  readonly localRoot: string | null;
}
