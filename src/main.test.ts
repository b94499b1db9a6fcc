import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyStartDefaults } from '../scripts/start-defaults.mjs';
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
    chmodSync(dataDir, 0o755); // as git makes ./data: the store takes it private at its first start
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
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(path.join(dataDir, 'store.db')).mode & 0o777).toString(8)).toBe('600');

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
    expect(again.output()).toMatch(/Admin is at +http:\/\/127\.0\.0\.1:\d+\/admin/);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  }, 45_000); // two full starts, the first loading the demo catalogue

  /** Starts the store with `env`, opens a few pages, and returns the banner and what the terminal got after it. */
  async function browse(env: Record<string, string>): Promise<{ banner: string; after: string }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-main-'));
    dirs.push(dataDir);
    const run = runMain({ ...env, DATA_DIR: dataDir, PORT: '0', DEMO_CATALOGUE: 'false' });
    const deadline = Date.now() + 20_000;
    while (!/Press Ctrl\+C to stop\.\n/.test(run.output())) {
      if (Date.now() > deadline) throw new Error(`no start-up lines:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const banner = run.output();
    const url = /Store is running at (http:\S+)/.exec(banner)?.[1] ?? '';
    for (const page of ['healthz', 'readyz', 'robots.txt', 'api/trpc/catalogue.list?input=%7B%7D', 'nowhere'])
      await (await fetch(`${url}${page}`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 300));
    const after = run.output().slice(banner.length);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    return { banner, after };
  }

  it("under npm start's settings, browsing the store adds no lines under the banner", async () => {
    const quiet = await browse(applyStartDefaults({}));
    expect(quiet.banner).toMatch(/^ {4}node dist\/admin\.js create you@example\.com$/m);
    expect(quiet.after).toBe('');
    // What those settings spare the terminal: LOG_LEVEL=info (the server's own default) logs each request.
    const loud = await browse({ NODE_ENV: 'production', LOG_LEVEL: 'info' });
    expect(loud.after.match(/"msg":"request completed"/g)?.length).toBeGreaterThanOrEqual(5);
  }, 60_000);
});
