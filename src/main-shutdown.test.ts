import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { launchServer } from '../scripts/launcher/server.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('on SIGTERM finishes a request in flight on a keep-alive connection, then exits 0 without waiting for the connection', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-shutdown-'));
  dirs.push(dataDir);
  const server = await launchServer({ entry: 'source', dataDir, env: { DEMO_CATALOGUE: 'false' } });
  await server.waitForOutput(/Store is running at http:/, 20_000);
  const port = server.port;

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
  server.signal('SIGTERM');
  const status = await answered;
  const answeredAt = Date.now();
  const { code } = await server.exited;
  agent.destroy();

  expect(status).toBe(401);
  expect(code).toBe(0);
  // Left open once idle, the connection would hold the close past the 10 s limit (exit 1, WAL left).
  expect(Date.now() - answeredAt).toBeLessThan(3000);
  expect(existsSync(path.join(dataDir, 'store.db-wal'))).toBe(false);
}, 30_000);
