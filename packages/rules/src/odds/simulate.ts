import { compareHighestMeets, countTens, decidingPair } from '../challenge/compare';
import { applyReroll, ignoreDice } from '../challenge/reroll';
import { hasAbilities, type SideAbilities } from './abilities';
import { classOfDecision, CLASSES, FULL_TIE, terminalCode } from './exact';
import { SimulationDice } from './rng';
import type { ChallengeOdds, OddsOptions } from './types';
import { classOfRaw, OddsTally, verdictTable, type VerdictContext } from './verdicts';

/**
 * Monte Carlo over the resolver's own code: every sample rolls both pools, applies the abilities with
 * applyReroll and ignoreDice, compares them with decidingPair (the comparison compareDice reports) or
 * compareHighestMeets, and is judged by `judge` (challenge/outcome.ts). Samples are counted by raw
 * comparison class and each class is judged once, since `judge` reads nothing else.
 */

/** Everything a simulation needs; plain data, so it can be sent to a worker. */
export interface SimulationPlan {
  readonly mode: 'opposed' | 'highest-die' | 'tie-break';
  readonly actorDice: number;
  readonly reactorDice: number;
  readonly actorModifier: number;
  readonly reactorModifier: number;
  readonly actor: SideAbilities;
  readonly reactor: SideAbilities;
  readonly options: OddsOptions;
  readonly context: VerdictContext;
}

/** Counts of samples by class code. */
export interface SimulationCounts {
  readonly samples: number;
  /** Attempts rolled: more than samples when full ties were rolled again. */
  readonly attempts: number;
  readonly codes: number[];
  readonly counts: number[];
}

/** Attempts one challenge may take under fullTie = reroll before it is left a tie. */
const MAX_ATTEMPTS = 1000;
/**
 * Samples per chunk. Chunk k holds samples k × PROGRESS_CHUNK up to (k + 1) × PROGRESS_CHUNK and rolls
 * them from stream k of the seed, so a simulation's counts depend on its seed alone, not on which
 * thread rolled which chunk or in what order. Progress is reported once per chunk.
 */
export const PROGRESS_CHUNK = 1 << 16;

/** The most chunks one simulation may have: chunk indices are handed out by a 32-bit counter. */
export const MAX_CHUNKS = 0x7fff_ffff;

/** Chunks to roll: the next chunk's index, or -1 once there is none left. */
export type NextChunk = () => number;

/** Chunks 0, 1, 2, ... in order, up to the last that `samples` needs. */
export function chunksInOrder(samples: number): NextChunk {
  const chunks = Math.ceil(samples / PROGRESS_CHUNK);
  let next = 0;
  return () => (next < chunks ? next++ : -1);
}

/**
 * Roll `dice.length` d10s into `dice`, sorted high to low, and return how many show 10. Ten faces sort
 * by counting: one pass to count each face, one to write them out, at any pool size.
 */
function rollSorted(dice: number[], rng: SimulationDice, tally: Int32Array): number {
  const n = dice.length;
  tally.fill(0);
  for (let i = 0; i < n; i++) tally[rng.d10()]!++;
  let at = 0;
  for (let f = 10; f >= 1; f--) {
    const stop = at + tally[f]!;
    while (at < stop) dice[at++] = f;
  }
  return tally[10]!;
}

function zeros(n: number): number[] {
  return Array.from({ length: n }, () => 0);
}

/**
 * Roll the chunks `nextChunk` hands out of a simulation of `samples` challenges, each from its own
 * stream of the seed; `progress` gets the number of challenges of each chunk once it is rolled.
 */
export function runSimulation(plan: SimulationPlan, samples: number, seed: number, nextChunk: NextChunk, progress?: (rolled: number) => void): SimulationCounts {
  const table = verdictTable(plan.options, plan.context);
  // One generator, restarted at the stream of each chunk.
  const rng = new SimulationDice(seed, 0);
  const rerollTies = plan.options.fullTie === 'reroll';
  const n = plan.actorDice;
  const m = plan.reactorDice;
  const mA = plan.actorModifier;
  const mR = plan.reactorModifier;
  const faceTally = new Int32Array(11);
  const codes: number[] = [];
  const counts: number[] = [];
  let attempts = 0;
  let rolled = 0;

  if (plan.mode !== 'highest-die' && !hasAbilities(plan.actor) && !hasAbilities(plan.reactor)) {
    // Plain pools: reuse two arrays, count by (class, tens) in a flat array.
    const A = zeros(n);
    const R = zeros(m);
    const pairs = Math.min(n, m);
    const dimA = n + 1;
    const dimR = m + 1;
    const flat = new Float64Array(CLASSES * dimA * dimR);
    for (let k = nextChunk(); k >= 0; k = nextChunk()) {
      rng.restart(seed, k);
      const size = Math.min(samples - k * PROGRESS_CHUNK, PROGRESS_CHUNK);
      for (let s = 0; s < size; s++) {
        for (let attempt = 1; ; attempt++) {
          attempts++;
          const ta = rollSorted(A, rng, faceTally);
          const tr = rollSorted(R, rng, faceTally);
          const cls = classOfDecision(decidingPair(A, mA, R, mR), pairs);
          if (cls === FULL_TIE && rerollTies && attempt < MAX_ATTEMPTS && table.verdict(terminalCode(cls, ta, tr)).rerollFullTie) continue;
          flat[(cls * dimA + ta) * dimR + tr]!++;
          break;
        }
      }
      rolled += size;
      progress?.(size);
    }
    for (let cls = 0; cls < CLASSES; cls++) {
      for (let ta = 0; ta < dimA; ta++) {
        for (let tr = 0; tr < dimR; tr++) {
          const c = flat[(cls * dimA + ta) * dimR + tr]!;
          if (c > 0) {
            codes.push(terminalCode(cls, ta, tr));
            counts.push(c);
          }
        }
      }
    }
    return { samples: rolled, attempts, codes, counts };
  }

  // Abilities or the literal unopposed reading: the general path.
  const byCode = new Map<number, number>();
  const A = zeros(n);
  const R = zeros(m);
  const armor = plan.options.armorIgnores;
  const prepare = (initial: number[], side: SideAbilities): number[] => {
    let dice: number[] = initial;
    for (const step of side.rerolls) dice = applyReroll(dice, step.spec, step.kind, rng).sorted;
    if (side.ignored > 0) dice = ignoreDice(dice, side.ignored, armor).kept;
    return dice;
  };
  for (let k = nextChunk(); k >= 0; k = nextChunk()) {
    rng.restart(seed, k);
    const size = Math.min(samples - k * PROGRESS_CHUNK, PROGRESS_CHUNK);
    for (let s = 0; s < size; s++) {
      for (let attempt = 1; ; attempt++) {
        attempts++;
        rollSorted(A, rng, faceTally);
        rollSorted(R, rng, faceTally);
        const a = prepare(A, plan.actor);
        const r = prepare(R, plan.reactor);
        let code: number;
        if (plan.mode === 'highest-die') code = classOfRaw(compareHighestMeets(a, mA, r, mR));
        else code = terminalCode(classOfDecision(decidingPair(a, mA, r, mR), Math.min(a.length, r.length)), countTens(a), countTens(r));
        if (rerollTies && attempt < MAX_ATTEMPTS && table.verdict(code).rerollFullTie) continue;
        byCode.set(code, (byCode.get(code) ?? 0) + 1);
        break;
      }
    }
    rolled += size;
    progress?.(size);
  }
  for (const [code, c] of byCode) {
    codes.push(code);
    counts.push(c);
  }
  return { samples: rolled, attempts, codes, counts };
}

/** Judge the counted classes and report the odds with their standard error. */
export function simulationOdds(plan: SimulationPlan, parts: readonly SimulationCounts[]): ChallengeOdds {
  const table = verdictTable(plan.options, plan.context);
  const tally = new OddsTally();
  let samples = 0;
  for (const part of parts) {
    samples += part.samples;
    for (let i = 0; i < part.codes.length; i++) tally.add(table.verdict(part.codes[i]!), part.counts[i]!);
  }
  const odds = tally.result('simulation');
  if (plan.options.fullTie === 'reroll') {
    let attempts = 0;
    for (const part of parts) attempts += part.attempts;
    odds.rerolledTie = attempts > 0 ? (attempts - samples) / attempts : 0;
  }
  return { ...odds, samples, standardError: Math.sqrt((odds.success * (1 - odds.success)) / samples) };
}

/** Run a plan in this thread, reporting progress now and then. */
export function simulatePlan(plan: SimulationPlan, samples: number, seed: number, onProgress?: (done: number, total: number) => void): ChallengeOdds {
  checkSamples(samples);
  let done = 0;
  const counts = runSimulation(plan, samples, seed, chunksInOrder(samples), onProgress ? (rolled) => onProgress((done += rolled), samples) : undefined);
  return simulationOdds(plan, [counts]);
}

/** Throws unless `samples` is a whole number of challenges from 1 to MAX_CHUNKS chunks' worth. */
export function checkSamples(samples: number): void {
  if (!Number.isSafeInteger(samples) || samples < 1) throw new RangeError(`samples must be a whole number of at least 1, got ${samples}`);
  if (Math.ceil(samples / PROGRESS_CHUNK) > MAX_CHUNKS) throw new RangeError(`samples must be at most ${MAX_CHUNKS * PROGRESS_CHUNK} (${MAX_CHUNKS} chunks of ${PROGRESS_CHUNK}), got ${samples}`);
}
