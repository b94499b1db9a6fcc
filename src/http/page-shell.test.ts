import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPageShell } from './page-shell.js';

describe('page shell', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const client = (css: string) => {
    dir = mkdtempSync(path.join(tmpdir(), 'shell-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets', 'index-X1.css'), css);
    writeFileSync(
      path.join(dir, 'index.html'),
      '<html><head><link rel="stylesheet" crossorigin href="/assets/index-X1.css"></head><body></body></html>',
    );
    return dir;
  };

  it('inlines the stylesheet and allows exactly it by hash', () => {
    const css = 'body{color:#111}';
    const shell = readPageShell(client(css));
    expect(shell?.html).toContain(`<style>${css}</style>`);
    expect(shell?.html).not.toContain('<link rel="stylesheet"');
    expect(shell?.styleHashes).toEqual([`'sha256-${createHash('sha256').update(css).digest('base64')}'`]);
  });

  it('keeps the link for a stylesheet that could end the style element', () => {
    const shell = readPageShell(client('a{}</style><script>alert(1)</script>'));
    expect(shell?.html).toContain('<link rel="stylesheet"');
    expect(shell?.styleHashes).toEqual([]);
  });

  it('has the boot script to inline without its comment lines, allowed by its hash, unless it could end the script element', () => {
    const root = client('a{}');
    expect(readPageShell(root)).toMatchObject({ boot: null, scriptHashes: [] });
    const boot =
      "const entry = document.querySelector('script[data-entry]');\nimport(entry.dataset.entry);\n";
    writeFileSync(
      path.join(root, 'boot.js'),
      `// Starts the app.\n${boot.split('\n')[0]}\n  /** The entry. */\n${boot.split('\n')[1]}\n`,
    );
    const shell = readPageShell(root);
    expect(shell?.boot).toBe(boot);
    expect(shell?.scriptHashes).toEqual([`'sha256-${createHash('sha256').update(boot).digest('base64')}'`]);
    writeFileSync(path.join(root, 'boot.js'), 'x = "</script><script>alert(1)</script>";');
    expect(readPageShell(root)).toMatchObject({ boot: null, scriptHashes: [] });
  });

  it('is absent without a built client', () => {
    expect(readPageShell(null)).toBeNull();
    dir = mkdtempSync(path.join(tmpdir(), 'shell-'));
    expect(readPageShell(dir)).toBeNull();
  });
});
