import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnNode } from './node-process.js';
import { freePort, launchServer, waitForHealthy } from './server.js';

const script = (code: string) => spawnNode(['-e', code]);

describe('the process launcher', () => {
  it('keeps standard output and error, and the exit code, until the output is all read', async () => {
    const proc = script('console.log("out"); console.error("err"); process.exitCode = 3');
    expect(await proc.exited).toEqual({ code: 3, signal: null });
    expect(proc.output()).toContain('out\n');
    expect(proc.output()).toContain('err\n');
    expect(proc.running()).toBe(false);
    expect(proc.rssKb()).toBeNull();
    expect(proc.cpuMs()).toBeNull();
  });

  it('reads the CPU time a process has used, which grows while it works', async () => {
    // Spins, when told, until it has used 400 ms of CPU (not of the clock: on a loaded machine 400 ms of the
    // clock gave it 160 ms of CPU, and the test failed for the machine's sake).
    const busy = script(
      'process.on("SIGUSR2", () => { const s = process.cpuUsage(); while (true) { const u = process.cpuUsage(s); if (u.user + u.system >= 400_000) break; } console.log("done"); }); console.log("ready"); setInterval(() => {}, 1000)',
    );
    await busy.waitForOutput(/ready/);
    const before = busy.cpuMs() ?? Number.NaN;
    busy.signal('SIGUSR2');
    await busy.waitForOutput(/done/);
    const after = busy.cpuMs() ?? Number.NaN;
    // 400 ms of spinning, read in the kernel's clock ticks (10 ms).
    expect(after - before).toBeGreaterThanOrEqual(380);
    await busy.kill();
  });

  it('stop() sends SIGTERM and falls back to SIGKILL after the grace period', async () => {
    const polite = script(
      'process.on("SIGTERM", () => process.exit(0)); console.log("ready"); setInterval(() => {}, 1000)',
    );
    await polite.waitForOutput(/ready/);
    expect(polite.rssKb()).toBeGreaterThan(0);
    expect(await polite.stop(5000)).toEqual({ code: 0, signal: null });

    const stubborn = script(
      'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)',
    );
    await stubborn.waitForOutput(/ready/);
    const started = Date.now();
    expect(await stubborn.stop(300)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('kill() ends the process at once, without its shutdown code', async () => {
    const proc = script('process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)');
    await proc.waitForOutput(/ready/);
    expect(await proc.kill()).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('waitForOutput and waitForHealthy give up with the output when the process ends first', async () => {
    const quitter = script('console.log("bye"); process.exit(2)');
    await expect(quitter.waitForOutput(/never/)).rejects.toThrow(/ended \(code 2\).*\n.*bye/s);
    const port = await freePort();
    const again = script('console.log("bye"); process.exit(2)');
    await expect(waitForHealthy(`http://127.0.0.1:${port}/healthz`, again)).rejects.toThrow(
      /ended during start-up \(code 2\):\nbye/,
    );
  });

  it('a server started without a data folder gets a temporary one, removed when it ends', async () => {
    const server = await launchServer({ entry: 'source', env: { PORT: 'not-a-port' } });
    expect(existsSync(server.dataDir)).toBe(true);
    expect((await server.exited).code).toBe(1);
    expect(existsSync(server.dataDir)).toBe(false);
  });
});
