import { formatResults, runDoctor } from '../ops/doctor.js';
import { count } from '../ops/plural.js';

// `npm run doctor`: one line per check (OK / WARN / FAIL and what to do); exits 1 when anything FAILs.
const results = await runDoctor(process.env);
console.log(formatResults(results));
const failed = results.filter((r) => r.level === 'FAIL').length;
const warned = results.filter((r) => r.level === 'WARN').length;
console.log(`\n${failed} failed, ${count(warned, 'warning')}, ${results.length - failed - warned} ok.`);
process.exit(failed > 0 ? 1 : 0);
