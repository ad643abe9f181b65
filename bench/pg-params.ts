/**
 * What node-postgres spends on the main thread turning one append batch's parameters into the bytes
 * of its Bind message: the 15 arrays append_batch takes, as array literals (every element quoted
 * and escaped, as node-postgres writes a JavaScript array) against binary arrays
 * (packages/server/src/store/pg-binary.ts). Each append is one roll event (a real `rolled` event's
 * JSON, 1,295 characters with 134 quotes) and its command record. No database is involved.
 *
 *   node --import tsx bench/pg-params.ts [--batches 6,12,100] [--rounds 8] [--ms 300]
 *
 * Both encodings run in the same process, interleaved, `--rounds` times each for about `--ms` per
 * round and batch size; prints the median CPU time per append of each and their ratio.
 */
import { createRequire } from 'node:module';
import { intArray, textArray } from '../packages/server/src/store/pg-binary';
import { ROLL_EVENT_JSON } from './roll-event';

const require = createRequire(import.meta.url);
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (v: unknown) => unknown };
const { serialize } = require('pg-protocol') as { serialize: { bind: (c: { values: unknown[]; valueMapper: (v: unknown) => unknown }) => Buffer } };

const opts = { batches: [6, 12, 100], rounds: 8, ms: 300 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i]?.replace(/^--/, '');
  const value = argv[i + 1] ?? '';
  if (key === 'batches') opts.batches = value.split(',').map(Number);
  else if (key === 'rounds' || key === 'ms') opts[key] = Number(value);
  else throw new Error(`unknown option --${key}`);
}
if (opts.batches.some((b) => !(b >= 1 && b <= 500)) || !(opts.rounds >= 1 && opts.rounds <= 50) || !(opts.ms >= 10 && opts.ms <= 5000)) {
  throw new Error('bounded: batches of 1 to 500 appends, 1 to 50 rounds, 10 to 5000 ms a round');
}

const payload = ROLL_EVENT_JSON;

interface Row {
  table: string;
  expected: number;
  commandId: string;
}
const at = '2026-12-08T01:38:52.516Z';
const participant = 'p_9jt_0TRZHn_FNW7Q';
const hash = 'a'.repeat(64);
const columns = (rows: Row[]) => ({
  texts: [rows.map((r) => r.table), rows.map(() => participant), rows.map((r) => r.commandId), rows.map(() => hash), rows.map(() => at)],
  ints: [rows.map((r) => r.expected), rows.map((r) => r.expected + 1), rows.map((r) => r.expected + 1), rows.map((r) => r.expected + 1), rows.map(() => 1)],
  eventInts: [rows.map((r) => r.expected + 1)],
  eventTexts: [rows.map(() => at), rows.map(() => participant), rows.map((r) => r.commandId), rows.map(() => payload)],
});
const literal = (rows: Row[]) => {
  const c = columns(rows);
  return serialize.bind({ values: [...c.texts, ...c.ints, ...c.eventInts, ...c.eventTexts], valueMapper: prepareValue }).length;
};
const binary = (rows: Row[]) => {
  const c = columns(rows);
  const values = [...c.texts.map(textArray), ...c.ints.map(intArray), ...c.eventInts.map(intArray), ...c.eventTexts.map(textArray)];
  return serialize.bind({ values, valueMapper: prepareValue }).length;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const results = [];
for (const size of opts.batches) {
  const rows: Row[] = Array.from({ length: size }, (_, i) => ({ table: `tbl_${i}_Xq9zLmN2pR`, expected: 1000 + i, commandId: `cmd-${i}-7fQ2kLm9` }));
  const perAppend: Record<'literal' | 'binary', number[]> = { literal: [], binary: [] };
  let bytes = { literal: 0, binary: 0 };
  for (let round = 0; round < opts.rounds; round++) {
    for (const name of round % 2 ? (['binary', 'literal'] as const) : (['literal', 'binary'] as const)) {
      const encode = name === 'literal' ? literal : binary;
      const started = process.cpuUsage();
      const until = performance.now() + opts.ms;
      let batches = 0;
      while (performance.now() < until) {
        bytes[name] = encode(rows);
        batches++;
      }
      const used = process.cpuUsage(started);
      perAppend[name].push((used.user + used.system) / (batches * size));
    }
  }
  const l = median(perAppend.literal);
  const b = median(perAppend.binary);
  results.push({ appendsPerBatch: size, literalUsPerAppend: Number(l.toFixed(2)), binaryUsPerAppend: Number(b.toFixed(2)), binaryOverLiteral: Number((b / l).toFixed(3)), bindBytes: bytes });
  bytes = { literal: 0, binary: 0 };
}
console.log(JSON.stringify(results, null, 1));
