import { spawn } from 'node:child_process';
import path from 'node:path';
import { appRoot } from '../app-root.js';

/**
 * `npm run admin -- ARGS` in its own process (through tsx, from the source), with `stdin` on its standard
 * input and `env` over this process's environment: the code it exited with and what it printed.
 */
export function adminCommand(
  args: string[],
  opts: { stdin?: string; env: Record<string, string> },
): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(appRoot, 'src/cli/admin.ts'), ...args],
    {
      cwd: appRoot,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stdin.end(opts.stdin ?? '');
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}
