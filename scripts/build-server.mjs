// Bundles the server and its command-line tools into dist/ (dependencies stay in node_modules).
import { build } from 'esbuild';

await build({
  entryPoints: {
    server: 'src/main.ts',
    migrate: 'src/db/migrate-cli.ts',
    admin: 'src/cli/admin.ts',
    backup: 'src/cli/backup.ts',
    restore: 'src/cli/restore.ts',
    doctor: 'src/cli/doctor.ts',
    // The guide's move to PostgreSQL and S3 must run where `npm prune --omit=dev` took tsx away.
    'move-to-postgres': 'src/cli/move-store.ts',
    // Worker threads get entries of their own: catalog-worker.ts, facet-load-in-worker.ts and word-reads.ts
    // start them next to the bundle that imports those (core/worker-thread.ts's workerEntry).
    'catalog-parse-worker': 'src/modules/catalog-versions/catalog-parse-worker.ts',
    'facet-load-worker': 'src/modules/catalogue/snapshot/facet-load-worker.ts',
    'word-read-worker': 'src/modules/catalogue/snapshot/word-read-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: '// Built by scripts/build-server.mjs: edit src/, not this file.' },
});
