import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../src/app-root.js';
import { SERVER_NODE_FLAGS } from './server-flags.js';

const read = (file: string) => readFileSync(path.join(appRoot, file), 'utf8');
const flags = SERVER_NODE_FLAGS.join(' ');

describe('the production server heap settings', () => {
  it('are the same in npm start, the README and the systemd unit of the deployment guide', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`node ${flags} scripts/start.mjs`);
    expect(read('README.md').replace(/\s+/g, ' ')).toContain(`\`node ${flags} dist/server.js\``);
    expect(read('docs/deployment.md')).toContain(`ExecStart=/usr/local/bin/node ${flags} dist/server.js`);
  });

  it('are accepted by this Node and give the heap they promise', () => {
    // A flag a Node upgrade dropped would stop the server at start ("bad option"): caught here first.
    const run = spawnSync(
      process.execPath,
      [
        ...SERVER_NODE_FLAGS,
        '-e',
        'const v8 = require("node:v8"); process.stdout.write(String(v8.getHeapStatistics().heap_size_limit))',
      ],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const limitMb = Number(run.stdout) / 1024 / 1024;
    // The old-space cap plus the young generation (three semi-spaces of 8 MB: 1,048 MB on Node 20).
    expect(limitMb).toBeGreaterThanOrEqual(1024);
    expect(limitMb).toBeLessThan(1024 + 32);
  });
});
