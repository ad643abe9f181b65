/**
 * Monte Carlo throughput: simulateChallenge (the resolver's comparison and judge, see
 * packages/rules/src/odds/simulate.ts) next to a bare loop doing the same work inline (same generator,
 * insertion sort, pairwise compare, core-2011 outcome, grade and criticals), and the worker-thread runner.
 *
 *   node --import tsx bench/simulate.bench.ts [samples]
 */
import { availableParallelism } from 'node:os';
import { simulateChallenge, tableOptions, type ChallengeQuery } from '@personae/rules';
import { simulateChallengeParallel } from '../packages/rules/src/odds/node';

const samples = Number(process.argv[2] ?? 2_000_000);
const options = tableOptions('core-2011');

/** The same work with nothing shared with the library: xoshiro128** d10s, sort, compare, tally. */
function bareLoop(n: number, mA: number, m: number, mR: number, count: number, seed: number): { success: number; clear: number; tie: number; crits: number[] } {
  let s0 = (seed ^ 0x9e3779b9) | 0 || 1;
  let s1 = 0x243f6a88;
  let s2 = 0x85a308d3;
  let s3 = 0x13198a2e;
  const d10 = (): number => {
    for (;;) {
      const mm = Math.imul(s1, 5);
      const x = Math.imul((mm << 7) | (mm >>> 25), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      if (x < 4294967290) return (x % 10) + 1;
    }
  };
  const A = Array.from({ length: n }, () => 0);
  const R = Array.from({ length: m }, () => 0);
  const roll = (dice: number[]): number => {
    let tens = 0;
    for (let i = 0; i < dice.length; i++) {
      const v = d10();
      if (v === 10) tens++;
      let j = i;
      while (j > 0 && dice[j - 1]! < v) {
        dice[j] = dice[j - 1]!;
        j--;
      }
      dice[j] = v;
    }
    return tens;
  };
  let success = 0;
  let clear = 0;
  let tie = 0;
  const crits = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const pairs = Math.min(n, m);
  for (let s = 0; s < count; s++) {
    const ta = roll(A);
    roll(R);
    let at = 0;
    for (let i = 0; i < pairs; i++) {
      const a = A[i]! + mA;
      const r = R[i]! + mR;
      if (a !== r) {
        at = a > r ? i + 1 : -(i + 1);
        break;
      }
    }
    if (at === 0 && n !== m) at = n > m ? pairs + 1 : -(pairs + 1);
    if (at > 0) {
      success++;
      if (at === 1) clear++;
    } else if (at === 0) tie++;
    crits[ta > 0 ? ta - 1 : 0]!++;
  }
  return { success, clear, tie, crits };
}

function rate(count: number, ms: number): number {
  return (count / ms) * 1000;
}

/** Best time of each of two functions over `runs` alternating runs (alternating evens out a busy machine). */
function bestOfBoth<A, B>(runs: number, f: () => A, g: () => B): [{ ms: number; value: A }, { ms: number; value: B }] {
  const a = { ms: Infinity, value: undefined as A };
  const b = { ms: Infinity, value: undefined as B };
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    a.value = f();
    a.ms = Math.min(a.ms, performance.now() - t0);
    t0 = performance.now();
    b.value = g();
    b.ms = Math.min(b.ms, performance.now() - t0);
  }
  return [a, b];
}

const fmt = (x: number): string => `${(x / 1e6).toFixed(2)}M/s`;

console.log(`Node ${process.version}, ${availableParallelism()} cores; ${samples.toLocaleString('en')} challenges per run, best of 7 alternating runs`);
console.log('pools    bare loop    simulateChallenge   ratio   success (bare / simulated)');
for (const [n, mA, m, mR] of [
  [3, 2, 3, 1],
  [8, 1, 6, 3],
] as const) {
  const q: ChallengeQuery = { actor: { dice: n, modifier: mA }, reactor: { dice: m, modifier: mR } };
  const [bare, sim] = bestOfBoth(
    7,
    () => bareLoop(n, mA, m, mR, samples, 7),
    () => simulateChallenge(q, options, { samples, seed: 7 }),
  );
  console.log(
    `${n}v${m}`.padEnd(9) +
      fmt(rate(samples, bare.ms)).padEnd(13) +
      fmt(rate(samples, sim.ms)).padEnd(20) +
      (bare.ms / sim.ms).toFixed(2).padEnd(8) +
      `${(bare.value.success / samples).toFixed(4)} / ${sim.value.success.toFixed(4)}`,
  );
}

// Worker threads: the time includes starting them (each loads the TypeScript sources through tsx).
const big = samples * 4;
for (const workers of [1, availableParallelism()]) {
  const q: ChallengeQuery = { actor: { dice: 8, modifier: 1 }, reactor: { dice: 6, modifier: 3 } };
  let reports = 0;
  const t0 = performance.now();
  const odds = await simulateChallengeParallel(q, options, { samples: big, seed: 7, workers, onProgress: () => reports++ });
  const ms = performance.now() - t0;
  console.log(`8v6 on ${workers} worker thread(s): ${big.toLocaleString('en')} challenges in ${ms.toFixed(0)} ms = ${fmt(rate(big, ms))} (success ${odds.success.toFixed(4)}, ${reports} progress reports)`);
}
