import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../test-support/s3.js';
import { createBackup } from './backup.js';
import { verifyBackup } from './restore.js';
import { putBackupFilesInto } from './storage-files.js';

/** Backups of a store whose files are in an S3 bucket (s3rver): the bucket's files go in, and back out. */

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

describe('backups with files in an S3 bucket', () => {
  let dataDir: string;
  let backupRoot: string;
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'backup-s3-'));
    backupRoot = mkdtempSync(path.join(tmpdir(), 'backup-s3-out-'));
    const handle = openDatabase(databaseFile(dataDir));
    await migrateToLatest(handle.db);
    await handle.close();
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(backupRoot, { recursive: true, force: true });
  });

  it('carries the bucket’s media and catalogue files, not what lies in the data folder', async () => {
    const { storage } = await s3.bucket();
    await storage.put('media/uploads/abc-640.webp', Buffer.from('picture'));
    await storage.put('catalogs/catalog-export-1.yaml', Buffer.from('products: []\n'));
    mkdirSync(path.join(dataDir, 'media', 'uploads'), { recursive: true });
    writeFileSync(path.join(dataDir, 'media', 'uploads', 'stale.webp'), 'not the store’s any more');

    const backup = await createBackup({ dataDir, backupRoot, kind: 'manual', storage });
    expect(backup.manifest.files.map((f) => f.path)).toEqual([
      'store.db',
      'media/uploads/abc-640.webp',
      'catalogs/catalog-export-1.yaml',
    ]);
    await verifyBackup(backup.dir);

    const fresh = (await s3.bucket()).storage;
    expect(await putBackupFilesInto(backup.dir, backup.manifest, fresh)).toBe(2);
    expect((await fresh.read('media/uploads/abc-640.webp')).toString()).toBe('picture');
    expect((await fresh.read('catalogs/catalog-export-1.yaml')).toString()).toBe('products: []\n');

    writeFileSync(path.join(backup.dir, 'media', 'uploads', 'abc-640.webp'), 'tampere');
    await expect(putBackupFilesInto(backup.dir, backup.manifest, fresh)).rejects.toThrow(
      /does not match its sha256/,
    );
  });

  it('npm run backup and npm run restore take the files from the bucket and put them back', async () => {
    const { name, storage } = await s3.bucket();
    await storage.put('media/uploads/abc-640.webp', Buffer.from('picture'));
    const env = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      ...s3.env(name),
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    };
    const cli = (script: string, args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const backedUp = cli('backup', ['--to', backupRoot]);
    expect(backedUp.stderr).not.toMatch(/failed|error/i);
    expect(backedUp.status).toBe(0);
    const dir = /Backup written to (\S+):/.exec(backedUp.stdout)?.[1] ?? '';

    await storage.remove('media/uploads/abc-640.webp');
    const restored = cli('restore', [dir, '--yes']);
    expect(restored.status).toBe(0);
    expect(restored.stdout).toContain(`Put 1 file back into the S3 bucket ${name}`);
    expect((await storage.read('media/uploads/abc-640.webp')).toString()).toBe('picture');
  });
});
