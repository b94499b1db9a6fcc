// Starts word-read-worker.ts through tsx, for the TypeScript sources (npm run dev, vitest). Node 20 does
// not apply `--import tsx` from a worker's execArgv to its entry, so the worker loads it with tsImport.
// The bundled server never uses this file: it starts dist/word-read-worker.js directly.
import { tsImport } from 'tsx/esm/api';

await tsImport('./word-read-worker.ts', import.meta.url);
