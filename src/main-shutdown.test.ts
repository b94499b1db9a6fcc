import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { appRoot } from './app-root.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('on SIGTERM finishes a request in flight on a keep-alive connection, then exits 0 without waiting for the connection', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-shutdown-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(appRoot, 'src/main.ts')], {
    cwd: appRoot,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      DEMO_CATALOGUE: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!/Store is running at http:\/\/127\.0\.0\.1:(\d+)/.test(out)) {
    if (Date.now() > deadline) throw new Error(`no start-up line:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = Number(/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);

  // A browser-like connection: kept alive after its response, its body still arriving at the signal.
  const agent = new http.Agent({ keepAlive: true });
  const body = JSON.stringify({ 0: { email: 'nobody@shop.example', password: 'x'.repeat(200) } });
  const answered = new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/trpc/auth.login?batch=1',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    setTimeout(() => req.end(body.slice(10)), 600);
  });
  await new Promise((r) => setTimeout(r, 200));
  child.kill('SIGTERM');
  const status = await answered;
  const answeredAt = Date.now();
  const code = await exited;
  agent.destroy();

  expect(status).toBe(401);
  expect(code).toBe(0);
  // Left open once idle, the connection would hold the close past the 10 s limit (exit 1, WAL left).
  expect(Date.now() - answeredAt).toBeLessThan(3000);
  expect(existsSync(path.join(dataDir, 'store.db-wal'))).toBe(false);
}, 30_000);
