import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileStorage } from './file-storage.js';

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/;

export class LocalFileStorage implements FileStorage {
  readonly localRoot: string;

  constructor(root: string) {
    this.localRoot = path.resolve(root);
  }

  /** Keys come from our own code, but a bad one must never escape the root folder. */
  private resolve(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
    }
    return path.join(this.localRoot, key);
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

  read(key: string): Promise<Buffer> {
    return readFile(this.resolve(key));
  }

  stream(key: string): Readable {
    return createReadStream(this.resolve(key));
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.resolve(key))).isFile();
    } catch {
      return false;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }
}
