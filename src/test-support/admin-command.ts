import { spawn } from 'node:child_process';
import path from 'node:path';
import { appRoot } from '../app-root.js';

export type CommandResult = { code: number | null; out: string };

/**
 * `npm run SCRIPT -- ARGS` of one of the store's commands (src/cli/SCRIPT.ts) in its own process, through tsx
 * from the source, as an operator runs it: `env` over this process's environment, `stdin` written to its
 * standard input (without it, stdin is /dev/null: no terminal, as in a script or over ssh -T). Returns the
 * code it exited with and what it printed on either output.
 */
export function storeCommand(
  script: 'admin' | 'backup' | 'restore' | 'move-store',
  args: string[],
  opts: { stdin?: string; env: Record<string, string> },
): Promise<CommandResult> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(appRoot, `src/cli/${script}.ts`), ...args],
    {
      cwd: appRoot,
      env: { ...process.env, ...opts.env },
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stdin?.end(opts.stdin);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

/** `npm run admin -- ARGS`, with `stdin` (empty unless given) on its standard input. */
export function adminCommand(
  args: string[],
  opts: { stdin?: string; env: Record<string, string> },
): Promise<CommandResult> {
  return storeCommand('admin', args, { env: opts.env, stdin: opts.stdin ?? '' });
}
