/**
 * Exact odds against a plain baseline measured in the same run: challengeOdds
 * (every field: success, clear and glancing, failure, full tie, both criticals distributions) and
 * successChance, each divided by the time of a plain float64 walk written here from scratch that
 * computes only the chance that the actor's pool beats the reactor's, and challengeOdds divided by
 * successChance measured in the same round. Goal: challengeOdds within 1.5x of successChance at every
 * size up to 30v30, for every preset.
 *
 *   node --import tsx bench/odds-vs-baseline.ts [rounds]
 *
 * Each round times every query in turn (blocks of calls lasting about 20 ms each), so a busy machine
 * slows them alike; the ratios printed are medians over the rounds, with their range.
 */
import { loadavg } from 'node:os';
import { challengeOdds, PRESETS, successChance, tableOptions, type OddsOptions } from '@personae/rules';

const rounds = Number(process.argv[2] ?? 7);

// ---------------------------------------------------------------------------------------------
// The baseline: chance that n d10s + diff beat m d10s, compared pair by pair from the highest
// (ties pass to the next pair, leftover dice win a tie that lasts). Walks the totals from the highest
// down: while tied, both sides have used k dice and the rest lie at or below the current total, so the
// number at this total is Binomial(remaining, 1/face).

const binomial: number[][][] = []; // binomial[face][remaining][count]
function binomialRow(face: number, remaining: number): number[] {
  const f = Math.max(0, Math.min(11, face));
  binomial[f] ??= [];
  let rowOf = binomial[f]![remaining];
  if (rowOf === undefined) {
    rowOf = new Array<number>(remaining + 1).fill(0);
    if (f === 0 || f === 11) rowOf[0] = 1;
    else {
      const p = 1 / f;
      for (let c = 0; c <= remaining; c++) rowOf[c] = choose(remaining, c) * p ** c * (1 - p) ** (remaining - c);
    }
    binomial[f]![remaining] = rowOf;
  }
  return rowOf;
}
function choose(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

function baselineWin(n: number, m: number, diff: number): number {
  const K = Math.min(n, m);
  if (K === 0) return n > m ? 1 : 0;
  let tied = new Float64Array(K);
  let next = new Float64Array(K);
  tied[0] = 1;
  let win = 0;
  for (let level = 10 + Math.max(diff, 0); level >= 1 + Math.min(diff, 0); level--) {
    next.fill(0);
    for (let k = 0; k < K; k++) {
      const p = tied[k]!;
      if (p === 0) continue;
      const a = binomialRow(level - diff, n - k);
      const r = binomialRow(level, m - k);
      // P(actor count > c), from the top of the actor's row down.
      let above = 0;
      for (let c = a.length - 1; c >= 0; c--) {
        if (c < r.length) win += p * r[c]! * above;
        above += a[c]!;
      }
      for (let c = 0; c < Math.min(a.length, r.length); c++) {
        const q = p * a[c]! * r[c]!;
        if (k + c === K) win += n > m ? q : 0;
        else next[k + c] = next[k + c]! + q;
      }
    }
    [tied, next] = [next, tied];
  }
  return win;
}

// ---------------------------------------------------------------------------------------------

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Microseconds per call of f, over a block lasting about 20 ms. */
function perCall(f: () => unknown): number {
  let calls = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) f();
    const ms = performance.now() - t0;
    if (ms >= 20) return (ms * 1000) / calls;
    calls *= ms < 2 ? 8 : 2;
  }
}

interface Case {
  readonly label: string;
  readonly baseline: () => unknown;
  readonly odds: () => unknown;
  readonly success: () => unknown;
}

const sizes = [5, 10, 20, 30, 64];
const grid: [number, number, number][] = [];
for (let n = 1; n <= 9; n++) for (let m = 1; m <= 9; m++) for (let d = -3; d <= 3; d++) grid.push([n, m, d]);

const cases: Case[] = [];
for (const preset of PRESETS) {
  const options: OddsOptions = tableOptions(preset);
  for (const n of sizes) {
    const q = { actor: { dice: n, modifier: 2 }, reactor: { dice: n, modifier: 1 } };
    cases.push({ label: `${preset} ${n}v${n} +2/+1`, baseline: () => baselineWin(n, n, 1), odds: () => challengeOdds(q, options), success: () => successChance(q, options) });
  }
  const queries = grid.map(([n, m, d]) => ({ actor: { dice: n, modifier: d }, reactor: { dice: m, modifier: 0 } }));
  cases.push({
    label: `${preset} grid 1..9 x 1..9 dice x -3..+3 (567)`,
    baseline: () => grid.forEach(([n, m, d]) => baselineWin(n, m, d)),
    odds: () => queries.forEach((q) => challengeOdds(q, options)),
    success: () => queries.forEach((q) => successChance(q, options)),
  });
}

// The baseline answers what successChance answers under core-2011 (a full tie is no success there).
const core = tableOptions('core-2011');
let worst = 0;
for (const [n, m, d] of grid) worst = Math.max(worst, Math.abs(baselineWin(n, m, d) - successChance({ actor: { dice: n, modifier: d }, reactor: { dice: m, modifier: 0 } }, core)));
for (const n of sizes) worst = Math.max(worst, Math.abs(baselineWin(n, n, 1) - successChance({ actor: { dice: n, modifier: 1 }, reactor: { dice: n, modifier: 0 } }, core)));

const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
const oddsRatio = cases.map(() => [] as number[]);
const successRatio = cases.map(() => [] as number[]);
const baseTimes = cases.map(() => [] as number[]);
const oddsOverSuccess = cases.map(() => [] as number[]);
for (let r = 0; r < rounds; r++) {
  cases.forEach((c, i) => {
    const b1 = perCall(c.baseline);
    const o = perCall(c.odds);
    const s = perCall(c.success);
    const b2 = perCall(c.baseline);
    const b = (b1 + b2) / 2;
    baseTimes[i]!.push(b);
    oddsRatio[i]!.push(o / b);
    successRatio[i]!.push(s / b);
    oddsOverSuccess[i]!.push(o / s);
  });
}
console.log(`Node ${process.version}, ${rounds} rounds; load average before ${loadBefore}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log(`baseline against successChance (core-2011): largest difference ${worst.toExponential(1)}`);
const range = (xs: number[]): string => `${median(xs).toFixed(2)}x (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
console.log(`${'query'.padEnd(44)} ${'baseline'.padStart(10)}   challengeOdds / baseline   successChance / baseline   challengeOdds / successChance`);
cases.forEach((c, i) => {
  console.log(`${c.label.padEnd(44)} ${median(baseTimes[i]!).toFixed(1).padStart(8)}us   ${range(oddsRatio[i]!).padEnd(26)} ${range(successRatio[i]!).padEnd(26)} ${range(oddsOverSuccess[i]!)}`);
});
