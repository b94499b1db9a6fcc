import { ConfigError } from '../config.js';
import { nodeRefusal } from '../core/node-support.js';

/**
 * Runs a command line tool and exits with its code. A failure prints what `explain` says of it (never a
 * stack trace; `usage` is true for a usage or configuration mistake) and exits 2 for those, 1 otherwise.
 */
export function runCommand(
  run: (argv: string[]) => Promise<number>,
  opts: {
    usageErrors?: ReadonlyArray<new (...args: never[]) => Error>;
    explain: (error: unknown, usage: boolean) => string;
  },
): void {
  const refusal = nodeRefusal();
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      const usage = [ConfigError, ...(opts.usageErrors ?? [])].some((kind) => error instanceof kind);
      console.error(opts.explain(error, usage));
      process.exit(usage ? 2 : 1);
    },
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
