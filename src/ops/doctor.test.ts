import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appRoot } from '../app-root.js';
import { createTestStore, type TestStore, testEngine } from '../test-support/test-store.js';
import { type CheckResult, runDoctor } from './doctor.js';

const KEY = `${'c'.repeat(64)}\n`;
const of = (results: CheckResult[], check: string) => results.filter((r) => r.check === check);
const levels = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.check, r.level]));

/** Checks of the SQLite file; doctor-postgres.test.ts is their twin with DATABASE_URL (in both modes). */
const onSqlite = it.skipIf(testEngine === 'postgres');

describe('npm run doctor', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  async function healthyStore(): Promise<Record<string, string>> {
    store = await createTestStore();
    chmodSync(store.dir, 0o700);
    writeFileSync(path.join(store.dir, 'session.key'), KEY, { mode: 0o600 });
    return { DATA_DIR: store.dir, NODE_ENV: 'development' };
  }

  onSqlite('passes a healthy store: one line per check, nothing FAILs', async () => {
    const env = await healthyStore();
    const results = await runDoctor(env, { uid: null });
    expect(results.filter((r) => r.level === 'FAIL')).toEqual([]);
    expect(levels(results)).toMatchObject({
      config: 'OK',
      'data-dir': 'OK',
      database: 'OK',
      disk: expect.stringMatching(/OK|WARN/),
      session: 'OK',
      stripe: 'OK',
      mail: 'OK',
    });
    expect(of(results, 'database')[0]?.message).toMatch(/integrity ok, schema current/);
  });

  it('reports a bad variable through the same Zod config, naming it', async () => {
    await healthyStore();
    const results = await runDoctor({ DATA_DIR: store.dir, BACKUP_KEEP: 'zero' }, { uid: null });
    expect(results).toEqual([
      {
        level: 'FAIL',
        check: 'config',
        message: expect.stringMatching(/^Invalid environment variable BACKUP_KEEP/),
      },
    ]);
  });

  it('names the mail server by its host alone, and warns a production store that emails nobody', async () => {
    const env = await healthyStore();
    const url = 'smtp://shop:hunter2-secret@mail.example.com:587';
    const [mail] = of(
      await runDoctor({ ...env, SMTP_URL: url, MAIL_FROM: 'orders@shop.example' }, { uid: null }),
      'mail',
    );
    expect(mail).toEqual({
      level: 'OK',
      check: 'mail',
      message: 'emails through mail.example.com, from orders@shop.example',
    });
    const production = { ...env, NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' };
    expect(of(await runDoctor(production, { uid: null }), 'mail')[0]).toMatchObject({
      level: 'WARN',
      message: expect.stringMatching(/^no SMTP_URL: order emails wait in the outbox/),
    });
    const [noFrom] = of(await runDoctor({ ...production, SMTP_URL: url }, { uid: null }), 'mail');
    expect(noFrom?.level).toBe('WARN');
    expect(noFrom?.message).toContain('no-reply@shop.example (default)');
    expect(JSON.stringify(noFrom)).not.toContain('hunter2');
  });

  it('flags a session key file other users can read', async () => {
    const env = await healthyStore();
    chmodSync(path.join(store.dir, 'session.key'), 0o644);
    const [session] = of(await runDoctor(env, { uid: null }), 'session');
    expect(session?.level).toBe('FAIL');
    expect(session?.message).toMatch(/readable by other users \(mode 644\).*chmod 600/);
  });

  it('flags Stripe settings that lose payments or charge the wrong way', async () => {
    const env = await healthyStore();
    const keyOnly = await runDoctor({ ...env, STRIPE_SECRET_KEY: 'sk_live_abc123' }, { uid: null });
    expect(of(keyOnly, 'stripe')[0]).toMatchObject({
      level: 'FAIL',
      message: expect.stringMatching(/live key set but no STRIPE_WEBHOOK_SECRET/),
    });

    const production = {
      ...env,
      NODE_ENV: 'production',
      PUBLIC_URL: 'http://shop.example',
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    };
    const results = await runDoctor(production, { uid: null });
    expect(of(results, 'stripe')[0]).toMatchObject({
      level: 'WARN',
      message: expect.stringMatching(/test-mode key/),
    });
    expect(of(results, 'public-url')[0]).toMatchObject({
      level: 'FAIL',
      message: expect.stringMatching(/not https/),
    });

    const malformed = await runDoctor({ ...env, STRIPE_SECRET_KEY: 'pk_live_abc' }, { uid: null });
    expect(malformed).toEqual([
      {
        level: 'FAIL',
        check: 'config',
        message: expect.stringMatching(/STRIPE_SECRET_KEY: must be a Stripe secret key/),
      },
    ]);
  });

  onSqlite('flags a corrupt database (garbage written into a copy)', async () => {
    await healthyStore();
    await store.handle.close();
    const broken = path.join(store.dir, 'broken');
    mkdirSync(broken, { mode: 0o700 });
    copyFileSync(path.join(store.dir, 'store.db'), path.join(broken, 'store.db'));
    const fd = openSync(path.join(broken, 'store.db'), 'r+');
    writeSync(fd, Buffer.alloc(4096 * 3, 0xa5), 0, 4096 * 3, 4096); // pages 2-4: b-tree pages turned to noise
    closeSync(fd);
    const [database] = of(await runDoctor({ DATA_DIR: broken }, { uid: null }), 'database');
    expect(database?.level).toBe('FAIL');
    expect(database?.message).toMatch(/integrity_check|malformed|cannot be read/);
  });

  it('warns about a world-readable data folder, and fails it in production', async () => {
    const env = await healthyStore();
    chmodSync(store.dir, 0o755);
    expect(of(await runDoctor(env, { uid: null }), 'data-dir')[0]?.level).toBe('WARN');
    const production = { ...env, NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' };
    expect(of(await runDoctor(production, { uid: null }), 'data-dir')[0]?.level).toBe('FAIL');
  });

  onSqlite(
    'words its counts as a person would, and gives advice ("Fix:") only on WARN and FAIL lines',
    async () => {
      const env = await healthyStore();
      const healthy = await runDoctor(env, { uid: null });
      expect(healthy.filter((r) => r.level === 'OK' && /Fix:/.test(r.message))).toEqual([]);
      expect(of(healthy, 'session')[0]?.message).toMatch(/, 1 key$/);
      expect(of(healthy, 'database')[0]?.message).toMatch(/\(\d+ migrations\)$/);
      expect(of(healthy, 'backups')[0]).toMatchObject({
        level: 'OK',
        message: expect.not.stringMatching(/Fix:/),
      });

      writeFileSync(path.join(store.dir, 'session.key'), KEY + KEY, { mode: 0o600 });
      mkdirSync(path.join(store.dir, '.pre-restore-20261122T100000Z'));
      const one = await runDoctor(env, { uid: null });
      expect(of(one, 'session')[0]?.message).toMatch(/, 2 keys$/);
      expect(of(one, 'restore')[0]?.message).toMatch(/^1 pre-restore copy in .*Fix: delete it once/);
      mkdirSync(path.join(store.dir, '.pre-restore-20261123T100000Z'));
      const two = await runDoctor(env, { uid: null });
      expect(of(two, 'restore')[0]?.message).toMatch(/^2 pre-restore copies in .*Fix: delete them once/);
      expect(two.map((r) => r.message).join('\n')).not.toMatch(/\((s|ies)\)/);
    },
  );

  it('exits non-zero on a FAIL and prints OK/WARN/FAIL lines (the CLI)', async () => {
    const env = await healthyStore();
    chmodSync(path.join(store.dir, 'session.key'), 0o640);
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(appRoot, 'src/cli/doctor.ts')], {
      cwd: appRoot,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^OK {4}config/m);
    expect(run.stdout).toMatch(/^FAIL {2}session/m);
    expect(run.stdout).toMatch(/^1 failed, (1 warning|\d+ warnings), \d+ ok\.$/m);
  });
});
