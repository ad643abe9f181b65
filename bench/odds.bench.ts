/**
 * Exact odds timings (packages/rules/src/odds): the success grid of 1..20 x 1..20 dice at every
 * modifier difference from -10 to +10, and single queries, as medians of many runs.
 *
 *   node --import tsx bench/odds.bench.ts
 */
import { availableParallelism, cpus } from 'node:os';
import { challengeOdds, oddsGrid, successChance, tableOptions, unopposedOdds, type ChallengeQuery, type TableOptions } from '@personae/rules';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median time of one call, in microseconds, over `runs` calls timed one by one after a warm-up. */
function perCall(runs: number, f: () => unknown): number {
  for (let i = 0; i < Math.min(runs, 2000); i++) f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return median(times) * 1000;
}

const dice = Array.from({ length: 20 }, (_, i) => i + 1);
function fullGrid(options: TableOptions): number {
  let checksum = 0;
  for (let d = -10; d <= 10; d++) for (const row of oddsGrid(dice, dice, d, options)) for (const p of row) checksum += p;
  return checksum;
}

console.log(`Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'})`);

for (const preset of ['core-2011', 'srd-v4'] as const) {
  const options = tableOptions(preset);
  fullGrid(options);
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    fullGrid(options);
    times.push(performance.now() - t0);
  }
  console.log(`grid 1..20 x 1..20 dice x differences -10..10 (8,400 cells), ${preset}: median ${median(times).toFixed(1)} ms of 15 runs`);
}

const queries: [string, ChallengeQuery, TableOptions, number][] = [
  ['5v5 +2/+1, all fields and criticals', { actor: { dice: 5, modifier: 2 }, reactor: { dice: 5, modifier: 1 } }, tableOptions('core-2011'), 20_000],
  ['5v5 +2/+1, all fields and criticals', { actor: { dice: 5, modifier: 2 }, reactor: { dice: 5, modifier: 1 } }, tableOptions('srd-v4'), 20_000],
  ['12v10 +0/+2', { actor: { dice: 12, modifier: 0 }, reactor: { dice: 10, modifier: 2 } }, tableOptions('srd-v4'), 5_000],
  ['30v30 +1/+0', { actor: { dice: 30, modifier: 1 }, reactor: { dice: 30, modifier: 0 } }, tableOptions('srd-v4'), 500],
  ['100v100 +1/+0', { actor: { dice: 100, modifier: 1 }, reactor: { dice: 100, modifier: 0 } }, tableOptions('core-2011'), 30],
];
for (const [label, q, options, runs] of queries) {
  const us = perCall(runs, () => challengeOdds(q, options));
  console.log(`challengeOdds ${label}, ${options.criticals} criticals: median ${us.toFixed(1)} us of ${runs.toLocaleString('en')}`);
}
const five = { actor: { dice: 5, modifier: 2 }, reactor: { dice: 5, modifier: 1 } };
console.log(`successChance 5v5 +2/+1, core-2011: median ${perCall(20_000, () => successChance(five, tableOptions('core-2011'))).toFixed(1)} us of 20,000`);
console.log(
  `unopposedOdds 3 dice +3 vs Normal, core-2011: median ${perCall(20_000, () => unopposedOdds({ player: { dice: 3, modifier: 3 }, difficulty: 2 }, tableOptions('core-2011'))).toFixed(1)} us of 20,000`,
);
const focus = { dice: 1, keep: 'better' as const, mayTouchHighest: false, source: 'Focus' };
const rerolled: ChallengeQuery = { actor: { dice: 4, modifier: 1, rerolls: [focus] }, reactor: { dice: 4, modifier: 1, ignoreOpponentDice: 1 } };
console.log(`challengeOdds 4v4 with a reroll and armor (enumerated): median ${(perCall(30, () => challengeOdds(rerolled, tableOptions('srd-v4'))) / 1000).toFixed(1)} ms of 30`);
