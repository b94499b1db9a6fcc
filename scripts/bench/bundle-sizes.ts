import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ChunkSize = {
  file: string;
  kind: 'storefront' | 'admin' | 'css';
  raw: number;
  gzip: number;
  brotli: number;
};
export type BundleReport = {
  /** What a shopper's browser fetches before the home page can respond: the entry and what it preloads. */
  homeInitialJs: { raw: number; gzip: number; brotli: number; files: string[] };
  /** Whether any admin code is in that set (it must not be). */
  adminInInitial: boolean;
  chunks: ChunkSize[];
};

function sizes(file: string) {
  const body = readFileSync(file);
  return {
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Reads the built client (dist/client): every chunk's size, compressed as the server sends it. */
export function bundleReport(clientDir: string): BundleReport {
  const assets = path.join(clientDir, 'assets');
  const chunks: ChunkSize[] = readdirSync(assets)
    .filter((f) => f.endsWith('.js') || f.endsWith('.css'))
    .map((file) => ({
      file,
      kind: file.endsWith('.css') ? 'css' : file.startsWith('admin') ? 'admin' : 'storefront',
      ...sizes(path.join(assets, file)),
    }));
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1] ?? '');
  const picked = chunks.filter((c) => initial.includes(c.file));
  const sum = (k: 'raw' | 'gzip' | 'brotli') => picked.reduce((n, c) => n + c[k], 0);
  return {
    homeInitialJs: { raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli'), files: initial },
    adminInInitial: picked.some((c) => c.kind === 'admin'),
    chunks: chunks.sort((a, b) => b.raw - a.raw),
  };
}

export function printBundle(report: BundleReport): void {
  const kb = (n: number) => (n / 1024).toFixed(1);
  console.log(
    `\nJavaScript before the home page responds: ${kb(report.homeInitialJs.brotli)} kB brotli, ${kb(report.homeInitialJs.gzip)} kB gzip (${kb(report.homeInitialJs.raw)} kB raw) in ${report.homeInitialJs.files.length} files; admin code in it: ${report.adminInInitial ? 'YES' : 'no'}`,
  );
  console.log('chunk                                        kind          raw kB   gzip kB  brotli kB');
  for (const c of report.chunks) {
    console.log(
      `${c.file.padEnd(44)} ${c.kind.padEnd(11)} ${kb(c.raw).padStart(8)} ${kb(c.gzip).padStart(9)} ${kb(c.brotli).padStart(10)}`,
    );
  }
}
