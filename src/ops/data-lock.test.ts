import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appRoot } from '../app-root.js';
import { DataDirBusyError, dataDirInUse, lockDataDirExclusive, lockDataDirShared } from './data-lock.js';

describe('the data folder lock', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'store-lock-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('lets several servers share a folder, and keeps restore out while any of them runs', async () => {
    const dir = tempDir();
    expect(dataDirInUse(dir)).toBe(false);
    const a = await lockDataDirShared(dir);
    const b = await lockDataDirShared(dir);
    expect(dataDirInUse(dir)).toBe(true);
    expect(() => lockDataDirExclusive(dir)).toThrow(DataDirBusyError);
    a.release();
    expect(() => lockDataDirExclusive(dir)).toThrow(DataDirBusyError);
    b.release();
    const restore = lockDataDirExclusive(dir);
    // A server starting during a restore waits, then refuses.
    await expect(lockDataDirShared(dir, { waitMs: 200 })).rejects.toThrow(/being restored/);
    restore.release();
    (await lockDataDirShared(dir)).release();
  });

  it('is given back by the operating system when the holder is killed (no stale lock)', async () => {
    const dir = tempDir();
    const script = `import { lockDataDirShared } from ${JSON.stringify(path.join(appRoot, 'src/ops/data-lock.ts'))};
      await lockDataDirShared(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: appRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) =>
      child.stdout?.on('data', (d: Buffer) => d.toString().includes('locked') && resolve()),
    );
    expect(() => lockDataDirExclusive(dir)).toThrow(DataDirBusyError);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    lockDataDirExclusive(dir).release();
  });
});
