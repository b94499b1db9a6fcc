import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { probeFileName } from './readiness.js';
import { claimDataDir } from './start-up.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

it('clears the /readyz probes a killed process left in DATA_DIR at start, and nothing that only looks alike', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-start-up-'));
  roots.push(dataDir);
  const leftovers = [probeFileName(), probeFileName(), '.readyz-4242-0a1b2c3d'];
  const others = [
    '.readyz-notes',
    '.readyz-4242-0a1b2c3d.bak',
    'readyz-4242-0a1b2c3d',
    '.readyz-12-XYZ12345',
  ];
  for (const name of [...leftovers, ...others]) writeFileSync(path.join(dataDir, name), 'ok');

  const lock = await claimDataDir(dataDir, () => {});
  try {
    for (const name of leftovers) expect(existsSync(path.join(dataDir, name)), name).toBe(false);
    for (const name of others) expect(existsSync(path.join(dataDir, name)), name).toBe(true);
  } finally {
    lock.release();
  }
});
