import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { launchServer, type ServerOptions } from '../scripts/launcher/server.js';
import { applyStartDefaults } from '../scripts/start-defaults.mjs';
import { databaseFile, openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { insertAdmin } from './modules/auth/admins.repository.js';
import { loadSessionKeys } from './modules/auth/session-keys.js';
import { SecretBox } from './modules/auth/two-factor/secret-box.js';
import { createThrowawayDatabase } from './test-support/postgres.js';

/** The real entry point (src/main.ts through tsx, as `npm run dev` does) in its own process. */
const runMain = (opts: Omit<ServerOptions, 'entry'>) => launchServer({ entry: 'source', ...opts });

describe('main', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('stops with one clear line naming a bad variable', async () => {
    const run = await runMain({ env: { PORT: 'not-a-port' } });
    expect((await run.exited).code).toBe(1);
    expect(run.output().trim()).toMatch(/^Invalid environment variable PORT: .*"not-a-port"\)$/);
  });

  it('refuses DATABASE_URL without SESSION_SECRET, saying why', async () => {
    const noSecret = await runMain({ env: { DATABASE_URL: 'postgres://127.0.0.1:5432/shop' } });
    expect((await noSecret.exited).code).toBe(1);
    expect(noSecret.output()).toMatch(/SESSION_SECRET is required with DATABASE_URL/);
  });

  it('with DATABASE_URL, two processes started together on an empty PostgreSQL database share one store: the demo loaded once, one admin, no store.db', async () => {
    const database = await createThrowawayDatabase('store_main');
    try {
      const env = { DATABASE_URL: database.url, SESSION_SECRET: 'x'.repeat(40) };
      const dataDirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), 'store-main-')));
      dirs.push(...dataDirs);
      const runs = await Promise.all(dataDirs.map((dataDir) => runMain({ dataDir, env })));
      const urls = await Promise.all(
        runs.map(async (run) => (await run.waitForOutput(/Store is running at (http:\S+)/, 40_000))[1] ?? ''),
      );
      await Promise.all(runs.map((run) => run.waitForOutput(/Press Ctrl\+C/, 20_000)));
      const outputs = runs.map((run) => run.output());
      expect(outputs.filter((o) => o.includes('Loaded the demo catalogue'))).toHaveLength(1);
      expect(outputs.filter((o) => /password: +\S+/.test(o))).toHaveLength(1);
      for (const [i, url] of urls.entries()) {
        const list = await fetch(
          `${url}api/trpc/catalogue.search?input=${encodeURIComponent(JSON.stringify({ limit: 24 }))}`,
        );
        expect(list.status).toBe(200);
        expect(JSON.stringify(await list.json())).toContain('"title"');
        expect(existsSync(path.join(dataDirs[i] ?? '', 'store.db'))).toBe(false);
      }
      const pool = new pg.Pool({ connectionString: database.url, max: 1 });
      try {
        const admins = await pool.query<{ n: string }>('SELECT count(*) AS n FROM admins');
        expect(Number(admins.rows[0]?.n)).toBe(1);
        const products = await pool.query<{ n: string }>('SELECT count(*) AS n FROM products');
        expect(Number(products.rows[0]?.n)).toBeGreaterThan(0);
      } finally {
        await pool.end();
      }
      for (const run of runs) expect((await run.stop()).code).toBe(0);
    } finally {
      await database.drop();
    }
  }, 90_000);

  it('starts, says where the store is, and on SIGTERM closes cleanly with the database closed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-main-'));
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755); // as git makes ./data: the store takes it private at its first start
    const run = await runMain({ dataDir, env: { DEMO_CATALOGUE: 'false' } });
    const url = (await run.waitForOutput(/Store is running at (http:\S+)/, 20_000))[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const health = await fetch(`${url}healthz`);
    expect(health.status).toBe(200);
    expect(existsSync(path.join(dataDir, 'store.db'))).toBe(true);
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(path.join(dataDir, 'store.db')).mode & 0o777).toString(8)).toBe('600');

    expect((await run.stop()).code).toBe(0);
    // SQLite removes the WAL file when the last connection closes cleanly.
    expect(existsSync(path.join(dataDir, 'store.db-wal'))).toBe(false);
  });

  it('at start, seals two-factor secrets sealed with a previous session key with the current one', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-main-'));
    dirs.push(dataDir);
    const [current, previous] = ['c'.repeat(40), 'p'.repeat(40)];
    const keysOf = (secret: string) => loadSessionKeys({ secret, previousSecrets: [], dataDir });
    const handle = openDatabase(databaseFile(dataDir));
    await migrateToLatest(handle.db);
    const id = await insertAdmin(handle.db, 'totp@shop.example', 'scrypt$unused', new Date());
    await handle.db
      .updateTable('admins')
      .set({ totp_secret: new SecretBox(keysOf(previous)).seal(Buffer.from('the phone secret')) })
      .where('id', '=', id)
      .execute();
    await handle.close();

    const env = { DEMO_CATALOGUE: 'false', SESSION_SECRET: current, SESSION_SECRET_PREVIOUS: previous };
    const run = await runMain({ dataDir, env });
    await run.waitForOutput(/Store is running at/, 20_000);
    expect((await run.stop()).code).toBe(0);

    const after = openDatabase(databaseFile(dataDir));
    try {
      const row = await after.db
        .selectFrom('admins')
        .select('totp_secret')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      // Opens with the current key alone: SESSION_SECRET_PREVIOUS can go.
      expect(new SecretBox(keysOf(current)).open(row.totp_secret ?? '')?.toString()).toBe('the phone secret');
    } finally {
      await after.close();
    }
  }, 60_000);

  it('on a fresh demo install, tells the person at the terminal how to sign in, with a password made now', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-main-'));
    dirs.push(dataDir);
    const run = await runMain({ dataDir });
    await run.waitForOutput(/Press Ctrl\+C/, 30_000);
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
    expect((await run.stop()).code).toBe(0);

    // The second start has an admin already: no new password is printed.
    const again = await runMain({ dataDir });
    await again.waitForOutput(/Press Ctrl\+C/);
    expect(again.output()).not.toMatch(/password:/);
    expect(again.output()).toMatch(/Admin is at +http:\/\/127\.0\.0\.1:\d+\/admin/);
    expect((await again.stop()).code).toBe(0);
  }, 45_000); // two full starts, the first loading the demo catalogue

  /** Starts the store with `env`, opens a few pages, and returns the banner and what the terminal got after it. */
  async function browse(env: Record<string, string>): Promise<{ banner: string; after: string }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-main-'));
    dirs.push(dataDir);
    const run = await runMain({ dataDir, env: { ...env, DEMO_CATALOGUE: 'false' } });
    await run.waitForOutput(/Press Ctrl\+C to stop\.\n/, 20_000);
    const banner = run.output();
    const url = /Store is running at (http:\S+)/.exec(banner)?.[1] ?? '';
    for (const page of ['healthz', 'readyz', 'robots.txt', 'api/trpc/catalogue.list?input=%7B%7D', 'nowhere'])
      await (await fetch(`${url}${page}`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 300));
    const after = run.output().slice(banner.length);
    expect((await run.stop()).code).toBe(0);
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
