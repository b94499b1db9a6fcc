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
    // Its own entry: catalog-parse.ts starts it as a worker thread, next to the bundle that imports it.
    'catalog-parse-worker': 'src/modules/catalog-versions/catalog-parse-worker.ts',
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
