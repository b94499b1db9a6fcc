import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Which test files the PostgreSQL run of vitest must repeat. A test reaches PostgreSQL only through the test
 * support that reads TEST_DATABASE (test-store.ts and its kind); the store's own code never reads it. A file
 * whose imports never lead to such a file runs the same on both runs, so the second run would repeat it for
 * nothing (a fifth of the PostgreSQL run's time). Followed: relative imports (static and dynamic) into test
 * support, other test files and scripts/, where TEST_DATABASE is read; not into the store's own modules.
 */
const ENGINE_SWITCH = 'TEST_DATABASE';
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, base]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

const root = path.resolve(import.meta.dirname, '..');

function followed(file: string): boolean {
  const parts = path.relative(root, file).split(path.sep);
  return parts.includes('test-support') || parts[0] === 'scripts' || /\.test\.tsx?$/.test(file);
}

/** True when `file` (absolute) reads TEST_DATABASE, or imports test code that does. */
export function choosesEngine(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (text.includes(ENGINE_SWITCH)) return true;
  for (const match of text.matchAll(IMPORT)) {
    const target = resolve(file, match[1] ?? '');
    if (target && followed(target) && choosesEngine(target, seen)) return true;
  }
  return false;
}

/** The test files (relative to the project, as vitest's `include` takes them) that choose the engine. */
export function engineTestFiles(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.test\.tsx?$/.test(name))
      .map((name) => path.join(dir, name))
      .filter((file) => choosesEngine(path.join(root, file)))
      .sort(),
  );
}
