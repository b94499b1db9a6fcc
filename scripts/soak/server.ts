/**
 * Starts the production build (dist/server.js) on a data folder, the way `npm start` runs it, and gives
 * the soak what it needs around it: its PID for RSS and signals, its output, and how it exited.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { appRoot } from '../../src/app-root.js';
import { SERVER_NODE_FLAGS } from '../server-flags.js';
import { send } from './http.js';

export const ADMIN_EMAIL = 'soak-owner@shop.example';
export const ADMIN_PASSWORD = 'soak-password-not-secret-1';

export type Exit = { code: number | null; signal: NodeJS.Signals | null; afterMs: number };

export type RunningServer = {
  child: ChildProcess;
  pid: number;
  port: number;
  dataDir: string;
  /** The last 64 KB of standard output and error. */
  output(): string;
  exited: Promise<Exit>;
  /** Resident memory in KiB from /proc, or null once it is gone. */
  rssKb(): number | null;
  kill9(): Promise<Exit>;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<Exit>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

export function readRssKb(pid: number): number | null {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)\s+kB/);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export async function startServer(opts: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<RunningServer> {
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(appRoot, 'dist', 'server.js')], {
    cwd: appRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      LOG_LEVEL: 'warn',
      DEMO_CATALOGUE: 'false',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOGIN_MAX_ATTEMPTS_PER_IP: '100000',
      // Every simulated shopper comes from 127.0.0.1: per-address budgets would treat them as one.
      PUBLIC_QUERY_MS_PER_SECOND: '0',
      CHECKOUTS_PER_IP: '100000',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const collect = (d: Buffer) => {
    out = (out + d.toString()).slice(-65_536);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, afterMs: performance.now() - started })),
  );
  const pid = child.pid ?? 0;
  const server: RunningServer = {
    child,
    pid,
    port: opts.port,
    dataDir: opts.dataDir,
    output: () => out,
    exited,
    rssKb: () => (child.exitCode === null && child.signalCode === null ? readRssKb(pid) : null),
    async kill9() {
      child.kill('SIGKILL');
      return exited;
    },
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited during start-up (${child.exitCode ?? child.signalCode}):\n${out}`);
    }
    try {
      if ((await send({ port: opts.port, path: '/healthz', timeoutMs: 2000 })).status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not healthy within ${opts.timeoutMs ?? 60_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
