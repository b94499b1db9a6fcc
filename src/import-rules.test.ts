import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's floors, checked from the imports themselves (decision 0014): imports run down from the entry
 * points to the ground (the tRPC routers stand in trpc/routers/, over the modules whose services they call),
 * and no modules import each other in a loop. Test files and test-support/ are left out: a test may reach any floor it checks.
 */
const root = path.resolve(import.meta.dirname);

/**
 * Top to bottom. A file may import its own floor or a lower one. `app-root.ts` is on the ground: it imports
 * nothing of ours and only says where the package lies (dist/client, the demo files), a fact any floor may need,
 * like config.ts.
 */
const floors: readonly (readonly string[])[] = [
  ['main.ts', 'cli'],
  ['app.ts'],
  ['http'],
  ['trpc'],
  ['ops'],
  ['modules'],
  ['db'],
  ['core', 'storage', 'shared', 'config.ts', 'app-root.ts'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** Paths below src/, with `/` whatever the platform and without the extension (`ops/job-lease`). */
type Import = { file: string; spec: string; target: string; typeOnly: boolean };

const posix = (p: string) => p.split(path.sep).join('/');
const withoutExtension = (p: string) => p.replace(/\.(tsx?|js)$/, '');

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  const statements =
    /(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|import\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;
  for (const m of text.matchAll(statements)) {
    const spec = m[2] ?? m[3] ?? m[4] ?? '';
    if (!spec.startsWith('.')) continue;
    found.push({
      file: withoutExtension(posix(path.relative(root, file))),
      spec,
      target: withoutExtension(posix(path.relative(root, path.resolve(path.dirname(file), spec)))),
      typeOnly: m[1] !== undefined,
    });
  }
  return found;
}

const all = sourceFiles(root).flatMap(importsOf);
const inSrc = all.filter((i) => !i.target.startsWith('..'));

/** The floor's index, from the first folder or, for a file at the top of src/, its own name. */
function floorOf(p: string): number {
  const [first = ''] = p.split('/');
  const name = p.includes('/') ? first : `${first}.ts`;
  const index = floors.findIndex((floor) => floor.includes(name));
  if (index < 0) throw new Error(`${p} stands on no floor: add its room to the list in import-rules.test.ts`);
  return index;
}

/** `modules/auth/session` → `modules/auth`. */
const moduleOf = (p: string) => (p.startsWith('modules/') ? p.split('/').slice(0, 2).join('/') : null);
const show = (i: Import) => `${i.file} -> ${i.target}`;

describe('server import rules', () => {
  it('reads the whole server', () => {
    expect(inSrc.length).toBeGreaterThan(500);
  });

  it('puts every room on a floor', () => {
    for (const i of inSrc) {
      floorOf(i.file);
      floorOf(i.target);
    }
  });

  it('runs no import back up the floors', () => {
    const upward = inSrc.filter((i) => floorOf(i.target) < floorOf(i.file));
    expect(upward.map(show)).toEqual([]);
  });

  // As create-t3-app keeps its routers under server/api/routers beside trpc.ts: the procedures stand on the
  // builders (trpc/init, trpc/public-query), which read auth, audit and limits below them, so no module has to
  // reach up to trpc/ for them and trpc/ and modules/ do not import each other.
  it('keeps every tRPC router in trpc/routers/, beside the builders, so no module imports trpc/', () => {
    const routers = sourceFiles(root).map((f) => withoutExtension(posix(path.relative(root, f))));
    expect(routers.filter((f) => f.endsWith('.router') && !f.startsWith('trpc/routers/'))).toEqual([]);
    expect(inSrc.filter((i) => moduleOf(i.file) && i.target.startsWith('trpc/')).map(show)).toEqual([]);
  });

  // Type imports count too: a loop of types still ties two modules so that neither can change alone (the
  // audit module took the admin's type from auth while auth recorded its changes through audit).
  it('has no loop of imports between modules', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of inSrc) {
      const from = moduleOf(i.file);
      const to = moduleOf(i.target);
      if (!from || !to || from === to) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
    // Each loop once, named from its smallest module: a depth-first walk that only visits modules sorting
    // after where it started.
    const loops: string[] = [];
    const walk = (start: string, at: string, trail: string[]) => {
      for (const next of edges.get(at) ?? []) {
        if (next === start) loops.push([...trail, start].map((m) => m.slice('modules/'.length)).join(' -> '));
        else if (next > start && !trail.includes(next)) walk(start, next, [...trail, next]);
      }
    };
    for (const start of [...edges.keys()].sort()) walk(start, start, [start]);
    expect(loops.sort()).toEqual([]);
  });
});
