/**
 * Folds a long table log: 50,000 stored events (free rolls, one in five hidden) through
 * the Personae table's evolve, the way the server loads a table after a restart, and reports the time
 * to parse and to fold them and the heap the folded state keeps per event.
 * Run: node --expose-gc --import tsx bench/table-fold.ts [events]
 */
import { personaeTable, type TableEvent } from '@personae/rules';
import { longRollLog } from './long-log';

const total = Number(process.argv[2] ?? 50_000);
const stored = longRollLog(total).map((e) => JSON.stringify(e));
(globalThis as { gc?: () => void }).gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const p0 = performance.now();
const parsed = stored.map((text) => JSON.parse(text) as TableEvent);
const parseMs = performance.now() - p0;
const t0 = performance.now();
let folded = personaeTable.initialState();
for (const e of parsed) folded = personaeTable.evolve(folded, e);
const foldMs = performance.now() - t0;
parsed.length = 0;
(globalThis as { gc?: () => void }).gc?.();
const heap = process.memoryUsage().heapUsed - heapBefore;
const v0 = performance.now();
personaeTable.viewState(folded, { role: 'player', participantId: 'p-ann' });
const viewMs = performance.now() - v0;
const jsonBytes = stored.reduce((n, text) => n + text.length, 0);
console.log(
  JSON.stringify({
    events: stored.length,
    jsonBytesPerEvent: Math.round(jsonBytes / stored.length),
    parseMs: Math.round(parseMs),
    foldMs: Math.round(foldMs),
    heapBytesPerEvent: Math.round(heap / stored.length),
    playerViewMs: +viewMs.toFixed(1),
  }),
);
