/**
 * The store server in a process of its own, for every harness that needs a real one: the end-to-end tests,
 * the soak, the bench and the tests of start-up and shutdown. One place decides how it is started, how
 * "up" is told, and how it is stopped.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appRoot } from '../../src/app-root.js';
import { SERVER_NODE_FLAGS } from '../server-flags.js';
import { describeExit, type NodeProcess, spawnNode } from './node-process.js';

export type ServerOptions = {
  /**
   * 'dist': the production build with the production heap settings, as `npm start` runs it (build first).
   * 'source': src/main.ts through tsx, as `npm run dev` does, for tests that need no build.
   */
  entry: 'dist' | 'source';
  /** Without one, a new temporary folder, removed when the process ends. */
  dataDir?: string;
  /** Without one, a free port. A restart passes the port it had, so clients can keep their address. */
  port?: number;
  /** Added over the defaults (see serverEnv) and the harness's own environment. */
  env?: Record<string, string>;
  /** Replaces the entry's Node options. */
  nodeFlags?: readonly string[];
  /** How long startServer waits for /healthz. */
  timeoutMs?: number;
};

export type ServerProcess = NodeProcess & {
  readonly port: number;
  /** http://127.0.0.1:PORT, without a trailing slash. */
  readonly baseUrl: string;
  readonly dataDir: string;
};

const DIST_ENTRY = path.join(appRoot, 'dist', 'server.js');
const SOURCE_ENTRY = path.join(appRoot, 'src', 'main.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The variables every harness sets; a caller's `env` comes on top. */
function serverEnv(opts: ServerOptions, port: number, dataDir: string): Record<string, string> {
  return {
    // The build is what production runs; a test of the source runs with the settings of the other tests.
    NODE_ENV: opts.entry === 'dist' ? 'production' : 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    // Requests are not logged: a harness reads the output for start-up lines and failures.
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
}

/** Starts the server and returns at once; startServer also waits until it answers /healthz. */
export async function launchServer(opts: ServerOptions): Promise<ServerProcess> {
  if (opts.entry === 'dist' && !existsSync(DIST_ENTRY)) {
    throw new Error('dist/server.js is missing: run `npm run build` first (test:e2e, soak and bench do).');
  }
  const port = opts.port ?? (await freePort());
  const ownDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'store-server-'));
  const args =
    opts.entry === 'dist'
      ? [...(opts.nodeFlags ?? SERVER_NODE_FLAGS), DIST_ENTRY]
      : [...(opts.nodeFlags ?? []), '--import', 'tsx', SOURCE_ENTRY];
  const proc = spawnNode(args, {
    env: serverEnv(opts, port, dataDir),
    ...(ownDataDir ? { afterExit: () => rmSync(dataDir, { recursive: true, force: true }) } : {}),
  });
  return { ...proc, port, baseUrl: `http://127.0.0.1:${port}`, dataDir };
}

/** Starts the server and waits until it answers /healthz; kills it and throws if it does not in time. */
export async function startServer(opts: ServerOptions): Promise<ServerProcess> {
  const server = await launchServer(opts);
  await waitForHealthy(`${server.baseUrl}/healthz`, server, opts.timeoutMs);
  return server;
}

/** One GET on a connection of its own, so the harness holds no idle keep-alive socket to the server. */
function answersOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** Polls `url` until it answers 200; throws with the process's output if the process ends or time runs out. */
export async function waitForHealthy(url: string, proc: NodeProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.running()) {
      const exit = await proc.exited;
      throw new Error(`the server ended during start-up (${describeExit(exit)}):\n${proc.output()}`);
    }
    if (await answersOk(url)) return;
    if (Date.now() > deadline) {
      await proc.kill();
      throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${proc.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
