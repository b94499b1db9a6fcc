import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { engineTestFiles } from './scripts/engine-test-files';

const TEST_DIRS = ['src', 'client/src', 'scripts'];
// `npm run test:postgres` repeats only the files whose tests choose their engine (scripts/engine-test-files.ts);
// a file named on the command line runs whatever it is.
const engineFilesOnly =
  process.env.TEST_DATABASE === 'postgres' && process.env.TEST_ENGINE_FILES_ONLY === '1';

export default defineConfig({
  resolve: { alias: { '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)) } },
  test: {
    include: engineFilesOnly ? engineTestFiles(TEST_DIRS) : TEST_DIRS.map((dir) => `${dir}/**/*.test.ts`),
    environment: 'node',
    pool: 'forks',
    // Test files share their worker's loaded modules instead of loading the app afresh each: loading was
    // most of the run (import 441 s of the SQLite run's 808; it took 13.5 min on a loaded machine and 3.1 with
    // this, PostgreSQL 7.7 and 3.8). The files keep no state between them that this could carry: no module
    // mocks, and the stubbed globals, environment and fake timers are put back by the tests that set them.
    isolate: false,
    // Vitest's default is one worker per core less one: a single worker on the 2-core machines CI runs on,
    // where most of a test's time is waiting (for PostgreSQL, a child store, a real SMTP or S3 server), so the
    // second core sat idle and a run took twice as long as it needs.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
    // Making a demo store on PostgreSQL takes seconds on a busy machine: a set-up is not what a test measures.
    hookTimeout: 60_000,
  },
});
