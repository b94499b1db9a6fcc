import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../src/app-root.js';

/** Every .ts file under src, outside tests. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('the server bundle', () => {
  // Workers are found by their `workerEntry(import.meta.url, '<name>')` call: one started any other way
  // (a name in a variable) would not be, and should be added to the list below by hand.
  it('has an entry of its own for every worker thread the server starts, and a tsx starter beside each', () => {
    const build = readFileSync(path.join(appRoot, 'scripts/build-server.mjs'), 'utf8');
    const started = sources(path.join(appRoot, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/workerEntry\(import\.meta\.url, '([\w-]+)'\)/g)].map((m) => ({
        name: m[1] as string,
        dir: path.dirname(file),
      })),
    );
    expect(started.map((w) => w.name).sort()).toEqual([
      'catalog-parse-worker',
      'facet-load-worker',
      'word-read-worker',
    ]);
    for (const { name, dir } of started) {
      // workerEntry looks for <name>.js beside the bundle, or <name>-tsx.mjs beside the sources.
      const source = path.relative(appRoot, path.join(dir, `${name}.ts`));
      expect(build).toContain(`'${name}': '${source}'`);
      expect(existsSync(path.join(dir, `${name}-tsx.mjs`))).toBe(true);
    }
  });
});
