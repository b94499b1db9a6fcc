import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The configuration the deployment guide tells an operator to copy is checked by the tools that will read
 * it: `nginx -t` on its nginx files (as Debian 12's nginx 1.22 refused the `http2 on;` the guide once had),
 * and the readiness check script run against two stand-in processes. Without nginx (or curl, openssl) on the
 * machine those tests are skipped, and say so.
 */
const GUIDE = path.join(import.meta.dirname, '..', 'docs', 'deployment.md');
const guide = readFileSync(GUIDE, 'utf8');
const run = promisify(execFile);

/** The contents of the guide's fenced blocks in `lang`, in order. */
function blocks(lang: string): string[] {
  return [...guide.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (m) => m[1] ?? '',
  );
}

function tool(candidates: string[], args: string[]): string | null {
  for (const candidate of candidates) {
    const answer = spawnSync(candidate, args, { encoding: 'utf8' });
    if (answer.status === 0) return candidate;
  }
  return null;
}

const nginx = tool(['nginx', '/usr/sbin/nginx'], ['-v']);
const openssl = tool(['openssl'], ['version']);
const curl = tool(['curl'], ['--version']);
const nginxVersion = nginx ? spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr.trim() : null;
if (!nginx || !openssl)
  console.log(
    `deployment-guide.test.ts: ${nginx ? 'openssl' : 'nginx'} is not installed: nginx -t is skipped`,
  );
else console.log(`deployment-guide.test.ts: checking the guide's nginx files with ${nginxVersion}`);
if (!curl)
  console.log('deployment-guide.test.ts: curl is not installed: the storefront-ready script is skipped');

const siteConfigs = blocks('nginx').filter((b) => /^server \{/m.test(b));
const upstreamBlocks = blocks('nginx').filter(
  (b) => !/^server \{/m.test(b) && /^upstream storefront \{/m.test(b),
);
const readyScript = blocks('sh').find((b) => b.startsWith('#!/bin/sh\n# storefront-ready:'));
const UPSTREAM = /^upstream storefront \{[\s\S]*?^\}$/m;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deployment-guide-'));
  if (openssl)
    spawnSync(
      openssl,
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=shop.example.com'],
        ...['-keyout', path.join(dir, 'privkey.pem'), '-out', path.join(dir, 'fullchain.pem')],
      ],
      { stdio: 'ignore' },
    );
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `nginx -t` on the site configuration inside a main file of its own, as Debian's nginx.conf includes
 * sites-enabled/: the certificate paths point at a throwaway self-signed pair, nothing under /etc is read.
 */
function nginxTest(site: string, name: string): { ok: boolean; output: string } {
  const prefix = path.join(dir, name);
  const conf = path.join(dir, `${name}.conf`);
  const inTemp = (sub: string) => path.join(prefix, sub);
  mkdirSync(prefix, { recursive: true });
  writeFileSync(
    conf,
    [
      `pid ${inTemp('nginx.pid')};`,
      'events {}',
      'http {',
      '    access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${inTemp(t)};`),
      site.replace(/\/etc\/letsencrypt\/live\/[^/\s;]+\/(fullchain|privkey)\.pem/g, (_m, file: string) =>
        path.join(dir, `${file}.pem`),
      ),
      '}',
      '',
    ].join('\n'),
  );
  const answer = spawnSync(
    nginx ?? 'nginx',
    ['-t', '-p', `${prefix}/`, '-c', conf, '-e', path.join(dir, `${name}-error.log`)],
    { encoding: 'utf8' },
  );
  return { ok: answer.status === 0, output: `${answer.stdout}${answer.stderr}` };
}

describe("the deployment guide's nginx configuration", () => {
  it('has the site file (section 4) and the upstream blocks for several processes (section 12)', () => {
    expect(siteConfigs).toHaveLength(1);
    expect(siteConfigs[0]).toMatch(UPSTREAM);
    expect(upstreamBlocks).toHaveLength(2);
  });

  it.skipIf(!nginx || !openssl)('loads with this machine’s nginx (nginx -t)', () => {
    const result = nginxTest(siteConfigs[0] ?? '', 'site');
    expect(result.output).toContain('test is successful');
    expect(result.ok).toBe(true);
  });

  it.skipIf(!nginx || !openssl)(
    'loads with each upstream block for several processes in place of the one',
    () => {
      const included = path.join(dir, 'storefront-upstreams.conf');
      writeFileSync(
        included,
        'server 127.0.0.1:3000 max_fails=3 fail_timeout=10s;\nserver 127.0.0.1:3001 down;\n',
      );
      for (const [i, upstream] of upstreamBlocks.entries()) {
        const site = (siteConfigs[0] ?? '').replace(
          UPSTREAM,
          upstream.replace('/etc/nginx/storefront-upstreams.conf', included),
        );
        const result = nginxTest(site, `upstream-${i}`);
        expect(result.output).toContain('test is successful');
        expect(result.ok).toBe(true);
      }
    },
  );
});

describe("the guide's storefront-ready script", () => {
  /** A stand-in store process whose /readyz answers `status`. */
  const processes: { server: Server; status: number; address: string }[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const entry = { server: createServer(), status: 200, address: '' };
      entry.server.on('request', (req, res) => {
        res.statusCode = req.url === '/readyz' ? entry.status : 404;
        res.end();
      });
      await new Promise<void>((resolve) => entry.server.listen(0, '127.0.0.1', resolve));
      entry.address = `127.0.0.1:${(entry.server.address() as AddressInfo).port}`;
      processes.push(entry);
    }
  });
  afterAll(async () => {
    for (const { server } of processes) await new Promise((resolve) => server.close(resolve));
  });

  it('is in the guide', () => {
    expect(readyScript).toBeDefined();
  });

  it.skipIf(!curl)(
    'lists the ready processes, marks the others down, and reloads only on a change',
    async () => {
      const script = path.join(dir, 'storefront-ready');
      writeFileSync(script, readyScript ?? '', { mode: 0o755 });
      const conf = path.join(dir, 'ready-upstreams.conf');
      const reloaded = path.join(dir, 'reloaded');
      const check = async (): Promise<{ conf: string; reloaded: boolean }> => {
        rmSync(reloaded, { force: true });
        await run('sh', [script], {
          env: {
            ...process.env,
            SERVERS: processes.map((p) => p.address).join(' '),
            CONF: conf,
            RELOAD: `touch ${reloaded}`,
          },
        });
        return { conf: readFileSync(conf, 'utf8'), reloaded: existsSync(reloaded) };
      };
      const [a, b] = processes.map((p) => p.address);
      const listed = (address: string | undefined) => `server ${address} max_fails=3 fail_timeout=10s;\n`;

      expect(await check()).toEqual({ conf: listed(a) + listed(b), reloaded: true });
      expect(await check()).toEqual({ conf: listed(a) + listed(b), reloaded: false });

      (processes[1] as { status: number }).status = 503;
      expect(await check()).toEqual({ conf: `${listed(a)}server ${b} down;\n`, reloaded: true });
      expect(await check()).toMatchObject({ reloaded: false });

      // None ready: all listed again, so shoppers get the store's own 503 rather than nginx's 502.
      (processes[0] as { status: number }).status = 503;
      expect(await check()).toEqual({ conf: listed(a) + listed(b), reloaded: true });

      if (nginx && openssl) {
        const site = (siteConfigs[0] ?? '').replace(
          UPSTREAM,
          (upstreamBlocks[1] ?? '').replace('/etc/nginx/storefront-upstreams.conf', conf),
        );
        expect(nginxTest(site, 'ready').ok).toBe(true);
      }
    },
  );
});
