import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project folder (where package.json lives), found from this module's own location so that the same code
 * works from src/ under tsx and from the bundled dist/server.js, whatever the working directory is.
 */
function findAppRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'storefront') return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the storefront package root');
    dir = parent;
  }
}

export const appRoot = findAppRoot();
export const clientDistDir = path.join(appRoot, 'dist', 'client');
export const demoDir = path.join(appRoot, 'data', 'demo');
