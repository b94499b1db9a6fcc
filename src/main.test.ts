import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appRoot } from './app-root.js';

/** Runs the real entry point (through tsx, as `npm run dev` does) in its own process. */
function runMain(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(appRoot, 'src/main.ts')], {
    cwd: appRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exit };
}

describe('main', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('stops with one clear line naming a bad variable', async () => {
    const run = runMain({ PORT: 'not-a-port' });
    expect(await run.exit).toBe(1);
    expect(run.output().trim()).toMatch(/^Invalid environment variable PORT: .*"not-a-port"\)$/);
  });

  it('starts, says where the store is, and on SIGTERM closes cleanly with the database closed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-main-'));
    dirs.push(dataDir);
    const run = runMain({ DATA_DIR: dataDir, PORT: '0', DEMO_CATALOGUE: 'false' });
    const deadline = Date.now() + 20_000;
    while (!/Store is running at (http:\S+)/.test(run.output())) {
      if (Date.now() > deadline) throw new Error(`no start-up line:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /Store is running at (http:\S+)/.exec(run.output())?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const health = await fetch(`${url}healthz`);
    expect(health.status).toBe(200);
    expect(existsSync(path.join(dataDir, 'store.db'))).toBe(true);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    // SQLite removes the WAL file when the last connection closes cleanly.
    expect(existsSync(path.join(dataDir, 'store.db-wal'))).toBe(false);
  });

  it('on a fresh demo install, tells the person at the terminal how to sign in, with a password made now', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-main-'));
    dirs.push(dataDir);
    const run = runMain({ DATA_DIR: dataDir, PORT: '0' });
    const deadline = Date.now() + 30_000;
    while (!/Press Ctrl\+C/.test(run.output())) {
      if (Date.now() > deadline) throw new Error(`no start-up lines:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const out = run.output();
    const url = /Store is running at (http:\S+)/.exec(out)?.[1] ?? '';
    const email = /email: +(\S+)/.exec(out)?.[1] ?? '';
    const password = /password: +(\S+)/.exec(out)?.[1] ?? '';
    expect(out).toContain('Loaded the demo catalogue');
    expect(email).toBe('admin@demo.store');
    expect(password.length).toBeGreaterThanOrEqual(16);
    const login = await fetch(`${url}api/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);

    // The second start has an admin already: no new password is printed.
    const again = runMain({ DATA_DIR: dataDir, PORT: '0' });
    while (!/Press Ctrl\+C/.test(again.output())) await new Promise((r) => setTimeout(r, 50));
    expect(again.output()).not.toMatch(/password:/);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  });
});
