import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../test-support/s3.js';
import { type FileStorage, type StoredFile, StoredFileMissing } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { S3FileStorage } from './s3-file-storage.js';
import { MAX_KEY_LENGTH, UnsafeStorageKey } from './storage-keys.js';

/**
 * What every FileStorage promises, proven on each implementation: the local folder and an S3 bucket on a
 * real S3-protocol server (s3rver) through the real AWS SDK. Callers rely on exactly these rules.
 */

type Subject = {
  storage: FileStorage;
  /** Writes a file by going around the storage, as an operator or another program might. */
  plant(key: string, data: string): Promise<void>;
  /** The same storage with lists fetched two keys at a time (only S3 pages its lists). */
  paged(): FileStorage;
  cleanup(): void;
};

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

const implementations: { name: string; open(): Promise<Subject> }[] = [
  {
    name: 'local folder',
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'storage-contract-'));
      const storage = new LocalFileStorage(dir);
      return {
        storage,
        async plant(key, data) {
          mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
          writeFileSync(path.join(dir, key), data);
        },
        paged: () => storage,
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'S3 bucket',
    async open() {
      const { name, options, storage } = await s3.bucket();
      const raw = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      });
      const paged = new S3FileStorage({ ...options, listPageSize: 2 });
      return {
        storage,
        async plant(key, data) {
          await raw.send(new PutObjectCommand({ Bucket: name, Key: key, Body: data }));
        },
        paged: () => paged,
        cleanup: () => {
          raw.destroy();
          paged.close();
        },
      };
    },
  },
];

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('latin1');
}

async function listed(storage: FileStorage, prefix: string): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  for await (const file of storage.list(prefix)) files.push(file);
  return files;
}

const HOSTILE_KEYS = [
  '',
  '../x',
  'media/../../x',
  'media/..',
  '/etc/passwd',
  'C:\\windows\\x',
  'a//b',
  'media/',
  '.hidden',
  'media/.env',
  'a/./b',
  'a\\b',
  'media/%2e%2e/x',
  'media/a b.jpg',
  'media/a\u0000b.jpg',
  'media/caf\u00e9.jpg',
  'media/a\nb.jpg',
  `media/${'a'.repeat(250)}.jpg`,
  `media/${'a/'.repeat(MAX_KEY_LENGTH / 2)}b`,
  'x'.repeat(100_000),
];

describe.each(implementations)('FileStorage contract: $name', (implementation) => {
  let subject: Subject;
  let storage: FileStorage;
  beforeEach(async () => {
    subject = await implementation.open();
    storage = subject.storage;
  });
  afterEach(() => subject.cleanup());

  it('stores, reads, streams and removes a file', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await storage.put('media/a/b.bin', bytes);
    expect(await storage.read('media/a/b.bin')).toEqual(bytes);
    expect(Buffer.from(await text(await storage.stream('media/a/b.bin')), 'latin1')).toEqual(bytes);
    expect(await storage.exists('media/a/b.bin')).toBe(true);
    await storage.remove('media/a/b.bin');
    expect(await storage.exists('media/a/b.bin')).toBe(false);
    await storage.remove('media/a/b.bin'); // removing what is gone is not an error
  });

  it('keeps an empty file', async () => {
    await storage.put('catalogs/empty.yaml', Buffer.alloc(0));
    expect((await storage.read('catalogs/empty.yaml')).length).toBe(0);
    expect((await storage.stat('catalogs/empty.yaml'))?.size).toBe(0);
  });

  it('says a missing file is missing, the same way everywhere', async () => {
    await expect(storage.read('media/nothing.jpg')).rejects.toBeInstanceOf(StoredFileMissing);
    await expect(storage.stream('media/nothing.jpg')).rejects.toBeInstanceOf(StoredFileMissing);
    expect(await storage.stat('media/nothing.jpg')).toBeNull();
    expect(await storage.exists('media/nothing.jpg')).toBe(false);
    // A folder of the local storage is not a file either.
    await storage.put('media/folder/inside.jpg', Buffer.from('x'));
    expect(await storage.stat('media/folder')).toBeNull();
    await expect(storage.read('media/folder')).rejects.toBeInstanceOf(StoredFileMissing);
  });

  it('streams byte ranges, both ends included', async () => {
    await storage.put('media/v.mp4', Buffer.from('0123456789'));
    expect(await text(await storage.stream('media/v.mp4', { start: 0, end: 0 }))).toBe('0');
    expect(await text(await storage.stream('media/v.mp4', { start: 3, end: 6 }))).toBe('3456');
    expect(await text(await storage.stream('media/v.mp4', { start: 9, end: 9 }))).toBe('9');
    expect(await text(await storage.stream('media/v.mp4', { start: 0, end: 9 }))).toBe('0123456789');
  });

  it('gives size, time and a validator that changes with the bytes', async () => {
    const before = Date.now();
    await storage.put('media/s.txt', Buffer.from('first'));
    const first = await storage.stat('media/s.txt');
    expect(first?.size).toBe(5);
    expect(first?.etag).toMatch(/^"[^"]+"$/);
    // S3 keeps whole seconds.
    expect(first?.lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect((await storage.stat('media/s.txt'))?.etag).toBe(first?.etag);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await storage.put('media/s.txt', Buffer.from('second, longer'));
    const second = await storage.stat('media/s.txt');
    expect(second?.size).toBe(14);
    expect(second?.etag).not.toBe(first?.etag);
    expect((await storage.read('media/s.txt')).toString()).toBe('second, longer');
    // The same size at once (within the same millisecond, most likely): still another validator.
    await storage.put('media/s.txt', Buffer.from('third, longer!'));
    expect((await storage.stat('media/s.txt'))?.etag).not.toBe(second?.etag);
  });

  it('lists the files under a prefix in key order, with sizes, nested folders included', async () => {
    for (const key of [
      'media/uploads/b.webp',
      'media/uploads/a.webp',
      'media/uploads/sub/c.webp',
      'media/demo/d.svg',
      'catalogs/catalog-export-1.yaml',
      'catalogs/catalog-import-2.yaml',
    ])
      await storage.put(key, Buffer.from(key));
    const uploads = await listed(storage, 'media/uploads/');
    expect(uploads.map((f) => f.key)).toEqual([
      'media/uploads/a.webp',
      'media/uploads/b.webp',
      'media/uploads/sub/c.webp',
    ]);
    expect(uploads[0]?.size).toBe('media/uploads/a.webp'.length);
    expect(uploads[0]?.lastModified).toBeInstanceOf(Date);
    expect((await listed(storage, 'catalogs/catalog-export-')).map((f) => f.key)).toEqual([
      'catalogs/catalog-export-1.yaml',
    ]);
    expect((await listed(storage, 'media/')).length).toBe(4);
    expect((await listed(storage, '')).length).toBe(6);
    expect(await listed(storage, 'nothing/here/')).toEqual([]);
    // Several pages of a list read as one.
    expect((await listed(subject.paged(), 'media/')).map((f) => f.key)).toEqual([
      'media/demo/d.svg',
      'media/uploads/a.webp',
      'media/uploads/b.webp',
      'media/uploads/sub/c.webp',
    ]);
  });

  it('leaves out of a list the files it could never have written', async () => {
    await storage.put('media/uploads/ours.webp', Buffer.from('x'));
    await subject.plant('media/uploads/.hidden', 'x');
    await subject.plant('media/uploads/with space.webp', 'x');
    await subject.plant('media/uploads/caf\u00e9.webp', 'x');
    expect((await listed(storage, 'media/uploads/')).map((f) => f.key)).toEqual(['media/uploads/ours.webp']);
  });

  it('refuses hostile keys in every method, and writes nothing for them', async () => {
    for (const key of HOSTILE_KEYS) {
      const shown = JSON.stringify(key.slice(0, 40));
      await expect(storage.put(key, Buffer.from('x')), shown).rejects.toBeInstanceOf(UnsafeStorageKey);
      await expect(storage.read(key), shown).rejects.toBeInstanceOf(UnsafeStorageKey);
      await expect(storage.stream(key), shown).rejects.toBeInstanceOf(UnsafeStorageKey);
      await expect(storage.stat(key), shown).rejects.toBeInstanceOf(UnsafeStorageKey);
      await expect(storage.exists(key), shown).rejects.toBeInstanceOf(UnsafeStorageKey);
      await expect(storage.remove(key), shown).rejects.toBeInstanceOf(UnsafeStorageKey);
    }
    for (const prefix of ['../', '/etc/', 'media/../', 'a//', '.git/'])
      await expect(listed(storage, prefix), prefix).rejects.toBeInstanceOf(UnsafeStorageKey);
    expect(await listed(storage, '')).toEqual([]);
  });

  it('says in its message which key it refused, shortened', async () => {
    const error = await storage.read('x'.repeat(100_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeStorageKey);
    expect(String((error as Error).message).length).toBeLessThan(120);
  });
});
