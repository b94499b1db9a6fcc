// Starts facet-load-worker.ts through tsx, for the TypeScript sources (npm run dev, vitest). Node 20 does
// not apply `--import tsx` from a worker's execArgv to its entry, so the worker loads it with tsImport.
// The bundled server never uses this file: it starts dist/facet-load-worker.js directly.
import { tsImport } from 'tsx/esm/api';

await tsImport('./facet-load-worker.ts', import.meta.url);
