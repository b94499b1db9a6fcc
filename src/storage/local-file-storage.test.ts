import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalFileStorage } from './local-file-storage.js';

describe('LocalFileStorage', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'storage-test-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores, reads and removes files under its root', async () => {
    const storage = new LocalFileStorage(dir);
    await storage.put('media/a/b.txt', Buffer.from('hello'));
    expect((await storage.read('media/a/b.txt')).toString()).toBe('hello');
    expect(await storage.exists('media/a/b.txt')).toBe(true);
    await storage.remove('media/a/b.txt');
    expect(await storage.exists('media/a/b.txt')).toBe(false);
  });

  it('leaves no temporary file behind when a write fails', async () => {
    const storage = new LocalFileStorage(dir);
    // The target is a folder that is not empty, so the final rename fails after the bytes were written.
    mkdirSync(path.join(dir, 'media', 'taken.txt'), { recursive: true });
    writeFileSync(path.join(dir, 'media', 'taken.txt', 'inside'), 'x');
    await expect(storage.put('media/taken.txt', Buffer.from('hello'))).rejects.toThrow();
    expect(readdirSync(path.join(dir, 'media'))).toEqual(['taken.txt']);
  });

  it('refuses keys that could leave the root', async () => {
    const storage = new LocalFileStorage(dir);
    for (const key of ['../x', 'media/../../x', '/etc/passwd', 'a//b', '.hidden', 'a/./b', 'a\\b', '']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/Unsafe storage key/);
    }
  });
});
