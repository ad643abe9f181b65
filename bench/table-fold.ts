/**
 * Folds a long table log: 50,000 stored events (free rolls, one in five hidden) through
 * the Personae table's evolve, the way the server loads a table after a restart, and reports the time
 * to parse and to fold them and the heap the folded state keeps per event.
 * Run: node --expose-gc --import tsx bench/table-fold.ts [events]
 *
 * With a ruleset first (`bench/table-fold.ts d100 [events]`, or `lucidity`) it folds that ruleset's long
 * encounter log instead (bench/encounter-log.ts) and reports the time of each fifth of the events, so
 * a cost that grows with the log shows as blocks that slow down. It then times a player's view of the
 * folded table twice: the first view (which reads the whole log once) and the views after each of the
 * last WARM events, one event and one view at a time, the way the server pushes views as a table plays.
 */
import { personaeTable, type TableEvent } from '@personae/rules';
import { encounterLogs } from './encounter-log';
import { longRollLog } from './long-log';

const ruleset = process.argv[2] === 'd100' || process.argv[2] === 'lucidity' ? process.argv[2] : null;
if (ruleset) {
  const total = Number(process.argv[3] ?? 20_000);
  const { decider, log } = encounterLogs[ruleset];
  const g0 = performance.now();
  const parsed = log(total).map((e) => JSON.parse(JSON.stringify(e)) as unknown);
  const generateMs = performance.now() - g0;
  const block = Math.max(1, Math.ceil(total / 5));
  const blockMs: number[] = [];
  const t0 = performance.now();
  let state = decider.initialState();
  let b0 = t0;
  parsed.forEach((e, i) => {
    state = decider.evolve(state, e);
    if ((i + 1) % block === 0 || i + 1 === parsed.length) {
      const now = performance.now();
      blockMs.push(Math.round(now - b0));
      b0 = now;
    }
  });
  const foldMs = performance.now() - t0;
  const player = { role: 'player', participantId: 'p-ann' } as const;
  // The view of the table WARM events back, then one view after each of the last WARM events.
  const WARM = Math.min(100, parsed.length - 1);
  let earlier = decider.initialState();
  for (const e of parsed.slice(0, parsed.length - WARM)) earlier = decider.evolve(earlier, e);
  const v0 = performance.now();
  decider.viewState(earlier, player);
  const firstViewMs = performance.now() - v0;
  const warm: number[] = [];
  for (const e of parsed.slice(parsed.length - WARM)) {
    earlier = decider.evolve(earlier, e);
    const w0 = performance.now();
    decider.viewState(earlier, player);
    warm.push(performance.now() - w0);
  }
  const mean = warm.reduce((a, b) => a + b, 0) / Math.max(1, warm.length);
  console.log(
    JSON.stringify({
      ruleset,
      events: parsed.length,
      generateMs: Math.round(generateMs),
      foldMs: Math.round(foldMs),
      msPerFifth: blockMs,
      firstPlayerViewMs: +firstViewMs.toFixed(1),
      playerViewAfterEachEventMs: { mean: +mean.toFixed(2), max: +Math.max(...warm).toFixed(2) },
    }),
  );
  process.exit(0);
}

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
