/**
 * A Node program in a process of its own, as the harnesses need it: its output kept, its end awaited, the two
 * ways to end it (SIGTERM with a deadline; SIGKILL, as a crash does) and its resident memory.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appRoot } from '../../src/app-root.js';

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type NodeProcess = {
  readonly pid: number;
  /** Standard output and error as they arrived, interleaved (the last MiB). */
  output(): string;
  /** Settles once the process has exited and its output is all read. */
  readonly exited: Promise<Exit>;
  running(): boolean;
  /** Sends the signal and returns at once, for a caller that times what follows it. */
  signal(name: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
  stop(graceMs?: number): Promise<Exit>;
  /** SIGKILL: no shutdown code runs, as in a crash or an out-of-memory kill. */
  kill(): Promise<Exit>;
  /** Resident memory in KiB (Linux's /proc), or null once the process is gone. */
  rssKb(): number | null;
  /** CPU time used so far, user and system, all threads, in ms (Linux's /proc), or null once it is gone. */
  cpuMs(): number | null;
  /** The first match of `pattern` in the output; rejects if the process exits first or the time runs out. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
};

/** A chatty process must not grow the harness without bound; every caller reads far less than this. */
const OUTPUT_LIMIT = 1024 * 1024;
const DEFAULT_GRACE_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function readRssKb(pid: number): number | null {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)\s+kB/);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * utime and stime of /proc/PID/stat, in clock ticks of 10 ms (USER_HZ is 100 on every Linux Node runs on).
 * The command name in parentheses may hold spaces, so the fields are counted from its closing one.
 */
export function readCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export function describeExit(exit: Exit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

export type SpawnOptions = {
  /** Added over the harness's own environment. */
  env?: Record<string, string>;
  /** Runs once the process has ended, before `exited` settles (to remove what belonged to it). */
  afterExit?: () => void;
};

/**
 * Runs `node ...args` from the project folder. The output is collected from the start, so a process that
 * fails before anyone waits for it still says why.
 */
export function spawnNode(args: readonly string[], opts: SpawnOptions = {}): NodeProcess {
  const child = spawn(process.execPath, args, {
    cwd: appRoot,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > OUTPUT_LIMIT) out = out.slice(-OUTPUT_LIMIT);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  // 'close' comes after 'exit' once stdout and stderr are drained: the last lines are in `out` by then.
  const exited = new Promise<Exit>((resolve) =>
    child.once('close', (code, signal) => {
      opts.afterExit?.();
      resolve({ code, signal });
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const pid = child.pid ?? 0;

  return {
    pid,
    output: () => out,
    exited,
    running,
    signal(name) {
      if (running()) child.kill(name);
    },
    async stop(graceMs = DEFAULT_GRACE_MS) {
      if (!running()) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
    async kill() {
      if (running()) child.kill('SIGKILL');
      return exited;
    },
    rssKb: () => (running() ? readRssKb(pid) : null),
    cpuMs: () => (running() ? readCpuMs(pid) : null),
    async waitForOutput(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(out);
        if (match) return match;
        if (!running()) {
          const exit = await exited;
          const last = pattern.exec(out);
          if (last) return last;
          throw new Error(`the process ended (${describeExit(exit)}) without printing ${pattern}:\n${out}`);
        }
        if (Date.now() > deadline)
          throw new Error(`no ${pattern} in the output within ${timeoutMs} ms:\n${out}`);
        await sleep(25);
      }
    },
  };
}
