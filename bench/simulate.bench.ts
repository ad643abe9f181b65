/**
 * Monte Carlo throughput: simulateChallenge (the resolver's comparison and judge, see
 * packages/rules/src/odds/simulate.ts) next to a bare loop doing the same work inline (same generator,
 * counting sort, pairwise compare, core-2011 outcome, grade and criticals), measured in the same run;
 * goal: at least 0.8x the bare loop at every pool size. Then the worker-thread runner, from
 * the built code (scripts/build-cli.mjs, run first): two workers against one, started anew (cold) and
 * kept from the run before (warm); goal at least 1.8x on an idle machine. The load average is printed
 * with the numbers.
 *
 *   node --import tsx bench/simulate.bench.ts [samples] [--workers-only]
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { simulateChallenge, tableOptions, type ChallengeQuery } from '@personae/rules';

const args = process.argv.slice(2);
const workersOnly = args.includes('--workers-only');
const samples = Number(args.find((a) => !a.startsWith('--')) ?? 1_000_000);
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
  const tally = new Int32Array(11);
  const roll = (dice: number[]): number => {
    tally.fill(0);
    for (let i = 0; i < dice.length; i++) tally[d10()]!++;
    let at = 0;
    for (let f = 10; f >= 1; f--) for (let c = tally[f]!; c > 0; c--) dice[at++] = f;
    return tally[10]!;
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

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`Node ${process.version}, ${availableParallelism()} cores; ${samples.toLocaleString('en')} challenges per run${workersOnly ? '' : ', best of 7 alternating runs'}; load average ${load()}`);
if (!workersOnly) console.log('pools    bare loop    simulateChallenge   ratio   success (bare / simulated)');
for (const [n, mA, m, mR] of workersOnly ? [] : [
  [3, 2, 3, 1],
  [5, 2, 5, 1],
  [8, 1, 6, 3],
  [20, 2, 20, 1],
  [30, 1, 30, 0],
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

// Worker threads, from the built code. Cold: no worker kept from an earlier run, so the time includes
// starting the threads and their first, unoptimized chunks (what one `personae odds --simulate` pays).
// Warm: the workers kept from the run before (what a process running simulations one after another
// pays). Each figure is the best of its rounds, the four kinds alternating within each round. The
// workers start without this script's flags (startWorker in packages/core/src/worker.ts), so not
// through the tsx it runs under. Beside each time, the CPU the whole process used (every thread),
// which a busy machine moves less than the time. Then the start-up alone: cold runs of two chunks.
const root = fileURLToPath(new URL('..', import.meta.url));
if (spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('building failed');
const built = (await import(pathToFileURL(`${root}packages/rules/dist/node.mjs`).href)) as typeof import('../packages/rules/src/odds/node');
const big = samples * 4;
const q86: ChallengeQuery = { actor: { dice: 8, modifier: 1 }, reactor: { dice: 6, modifier: 3 } };
const rounds = 3;
const kinds = ['cold', 'warm'] as const;
const times = { cold: { 1: [] as number[], 2: [] as number[] }, warm: { 1: [] as number[], 2: [] as number[] } };
const cpu = { cold: { 1: [] as number[], 2: [] as number[] }, warm: { 1: [] as number[], 2: [] as number[] } };
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
let answer: unknown;
for (let round = 0; round < rounds; round++) {
  for (const kind of kinds) {
    for (const workers of [1, 2] as const) {
      if (kind === 'cold') await built.endIdleSimulationWorkers();
      // Warm: two workers kept, each having rolled this query before.
      else await built.simulateChallengeParallel(q86, options, { samples: 2 * 65_536 * 4, seed: 1, workers: 2 });
      const [t0, c0] = [performance.now(), process.cpuUsage()];
      const odds = await built.simulateChallengeParallel(q86, options, { samples: big, seed: 7, workers });
      times[kind][workers].push(performance.now() - t0);
      cpu[kind][workers].push(cpuMs(c0));
      // The same seed gives the same answer with any number of workers: the same work each time.
      if (answer === undefined) answer = odds;
      else if (JSON.stringify(odds) !== JSON.stringify(answer)) throw new Error(`${workers} workers (${kind}) gave another answer for the same seed`);
    }
  }
}
const best = (xs: number[]): number => Math.min(...xs);
for (const kind of kinds) {
  const [one, two] = [best(times[kind][1]), best(times[kind][2])];
  console.log(
    `8v6, ${big.toLocaleString('en')} challenges, ${kind}, best of ${rounds} alternating: 1 worker ${one.toFixed(0)} ms, 2 workers ${two.toFixed(0)} ms: ` +
      `2 workers / 1 = ${(one / two).toFixed(2)}x (all rounds, 1 / 2: ${times[kind][1].map((t) => t.toFixed(0)).join(', ')} / ${times[kind][2].map((t) => t.toFixed(0)).join(', ')} ms; ` +
      `CPU ${cpu[kind][1].map((t) => t.toFixed(0)).join(', ')} / ${cpu[kind][2].map((t) => t.toFixed(0)).join(', ')} ms)`,
  );
}
// Start-up: each worker started anew for two chunks (the first worker up may roll both).
const starts = 9;
const startup = { 1: { ms: [] as number[], cpu: [] as number[] }, 2: { ms: [] as number[], cpu: [] as number[] } };
for (let i = 0; i < starts; i++) {
  for (const workers of [1, 2] as const) {
    await built.endIdleSimulationWorkers();
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    await built.simulateChallengeParallel(q86, options, { samples: 2 * 65_536, seed: 7, workers });
    startup[workers].ms.push(performance.now() - t0);
    startup[workers].cpu.push(cpuMs(c0));
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(
  `start-up, 8v6, ${(2 * 65_536).toLocaleString('en')} challenges, cold, median of ${starts} alternating: ` +
    `1 worker ${median(startup[1].ms).toFixed(0)} ms (CPU ${median(startup[1].cpu).toFixed(0)} ms), 2 workers ${median(startup[2].ms).toFixed(0)} ms (CPU ${median(startup[2].cpu).toFixed(0)} ms)`,
);
console.log(`load average ${load()}`);
