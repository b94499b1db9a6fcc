import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The client's rooms, checked from the imports themselves (decision 0014): a feature never imports another
 * feature, components/ and lib/ never import features/, lib/ has no JSX pieces from components/, and server
 * code arrives only as `import type { AppRouter }` or through the @shared alias.
 */
const root = path.resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

type Import = { file: string; spec: string; target: string | null; typeOnly: boolean };

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
    const spec = m[2] ?? m[3] ?? '';
    const target = spec.startsWith('.') ? path.relative(root, path.resolve(path.dirname(file), spec)) : null;
    found.push({ file: path.relative(root, file), spec, target, typeOnly: m[1] !== undefined });
  }
  return found;
}

const all = sourceFiles(root).flatMap(importsOf);
const room = (p: string) => p.split(path.sep);

describe('client import rules', () => {
  it('reads the whole client', () => {
    expect(all.length).toBeGreaterThan(200);
  });

  it('has no feature importing another feature', () => {
    const crossing = all.filter((i) => {
      if (!i.target) return false;
      const [from, fromFeature] = room(i.file);
      const [to, toFeature] = room(i.target);
      return from === 'features' && to === 'features' && fromFeature !== toFeature;
    });
    expect(crossing.map((i) => `${i.file} -> ${i.spec}`)).toEqual([]);
  });

  it('keeps components/ and lib/ below the features, and lib/ below components/', () => {
    const upward = all.filter((i) => {
      if (!i.target) return false;
      const [from] = room(i.file);
      const [to] = room(i.target);
      if (from === 'components' || from === 'lib') return to === 'features' || to === 'app';
      return false;
    });
    const libToComponents = all.filter(
      (i) => i.target && room(i.file)[0] === 'lib' && room(i.target)[0] === 'components',
    );
    expect([...upward, ...libToComponents].map((i) => `${i.file} -> ${i.spec}`)).toEqual([]);
  });

  it('keeps admin folders to the admin: the storefront reaches them only through the lazy admin chunk', () => {
    // The storefront's stylesheet leaves the admin folders out (styles.css): a storefront module that
    // imported from one would render classes that only the admin's stylesheet has.
    const inAdmin = (p: string) => room(p).includes('admin');
    const leaks = all.filter(
      (i) =>
        i.target &&
        inAdmin(i.target) &&
        !inAdmin(i.file) &&
        !(i.file === path.join('app', 'app-routes.tsx') && i.spec === '../features/admin/admin-app'),
    );
    expect(leaks.map((i) => `${i.file} -> ${i.spec}`)).toEqual([]);
    expect(all.some((i) => i.spec === '../features/admin/admin-app')).toBe(true);
  });

  it('reaches server code only as the AppRouter type or through @shared', () => {
    const server = all.filter((i) => i.target?.startsWith(`..${path.sep}..${path.sep}src`));
    expect(
      server
        .filter((i) => !(i.typeOnly && i.spec.endsWith('/src/trpc/router')))
        .map((i) => `${i.file} -> ${i.spec}`),
    ).toEqual([]);
    expect(server.length).toBe(1);
  });
});
