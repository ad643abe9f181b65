import type { DiceSource } from '@personae/dice';
import { compareHighestMeets, countTens, decidingPair } from '../challenge/compare';
import { applyReroll, ignoreDice, rerollPositions } from '../challenge/reroll';
import type { SideAbilities } from './abilities';
import { classOfDecision, type TerminalClasses } from './exact';
import { classOfRaw, type VerdictSink, type VerdictTable } from './verdicts';

/**
 * Exact odds by enumeration, for pools that are not plain independent dice (rerolls, forced rerolls,
 * armor). Each side becomes a distribution over sorted pools; the resolver's own functions
 * (rerollPositions, applyReroll, ignoreDice, decidingPair, compareHighestMeets) do the work on every one.
 */

export interface PoolOutcome {
  /** The dice, sorted high to low. */
  readonly dice: number[];
  readonly p: number;
}

/** How many sorted pools n d10 can show: C(n + 9, 9). */
export function sortedPoolCount(n: number): number {
  let c = 1;
  for (let i = 1; i <= 9; i++) c = (c * (n + i)) / i;
  return Math.round(c);
}

/** Every sorted roll of n d10 with its probability (the multinomial count of its orders over 10^n). */
export function sortedRolls(n: number): PoolOutcome[] {
  const out: PoolOutcome[] = [];
  const dice: number[] = [];
  const tenth = 0.1 ** n;
  // Faces from 10 down: choose how many dice show each; weight = C(left, c) for each choice.
  const walk = (face: number, left: number, weight: number): void => {
    if (face === 1) {
      for (let i = 0; i < left; i++) dice.push(1);
      out.push({ dice: [...dice], p: weight * tenth });
      dice.length -= left;
      return;
    }
    let binom = 1;
    for (let c = 0; c <= left; c++) {
      walk(face - 1, left - c, weight * binom);
      dice.push(face);
      binom = (binom * (left - c)) / (c + 1);
    }
    dice.length -= left + 1;
  };
  walk(10, n, 1);
  return out;
}

/** A dice source that hands out a fixed list, reset per use (enumerating reroll results). */
class ListedDice implements DiceSource {
  readonly kind = 'given' as const;
  values: number[] = [];
  at = 0;
  die(): number {
    return this.values[this.at++]!;
  }
}

function merge(into: Map<string, PoolOutcome>, dice: number[], p: number): void {
  const key = dice.join(',');
  const had = into.get(key);
  into.set(key, had ? { dice: had.dice, p: had.p + p } : { dice, p });
}

/** How many reroll results enumerating a side's abilities would visit (an upper bound). */
export function rerollWork(dice: number, abilities: SideAbilities): number {
  let work = 0;
  const pools = sortedPoolCount(dice);
  for (const step of abilities.rerolls) {
    work += pools * 10 ** Math.min(step.spec.positions?.length ?? step.spec.dice, dice);
  }
  return work;
}

/** A side's distribution of compared dice: roll, every reroll in order, then armor. */
export function sideDistribution(dice: number, abilities: SideAbilities, armorIgnores: 'highest' | 'lowest'): PoolOutcome[] {
  let dist = sortedRolls(dice);
  const source = new ListedDice();
  for (const { spec, kind } of abilities.rerolls) {
    const next = new Map<string, PoolOutcome>();
    for (const o of dist) {
      const j = rerollPositions(o.dice, spec, kind).length;
      if (j === 0) {
        merge(next, o.dice, o.p);
        continue;
      }
      const each = o.p * 0.1 ** j;
      const values = new Array<number>(j).fill(1);
      for (;;) {
        source.values = values;
        source.at = 0;
        merge(next, applyReroll(o.dice, spec, kind, source).sorted, each);
        let i = 0;
        while (i < j && values[i] === 10) values[i++] = 1;
        if (i === j) break;
        values[i]!++;
      }
    }
    dist = [...next.values()];
  }
  if (abilities.ignored > 0) {
    const next = new Map<string, PoolOutcome>();
    for (const o of dist) merge(next, ignoreDice(o.dice, abilities.ignored, armorIgnores).kept, o.p);
    dist = [...next.values()];
  }
  return dist;
}

/** Compare two side distributions pair by pair into terminal classes (tens are always known here). */
export function compareDistributions(actor: readonly PoolOutcome[], actorModifier: number, reactor: readonly PoolOutcome[], reactorModifier: number): TerminalClasses {
  let maxA = 0;
  let maxR = 0;
  for (const o of actor) maxA = Math.max(maxA, o.dice.length);
  for (const o of reactor) maxR = Math.max(maxR, o.dice.length);
  const dimA = maxA + 2;
  const dimR = maxR + 2;
  const mass = new Float64Array(7 * dimA * dimR);
  const tensR = reactor.map((o) => countTens(o.dice));
  for (const a of actor) {
    const ta = countTens(a.dice) + 1;
    for (let j = 0; j < reactor.length; j++) {
      const r = reactor[j]!;
      const at = decidingPair(a.dice, actorModifier, r.dice, reactorModifier);
      const cls = classOfDecision(at, Math.min(a.dice.length, r.dice.length));
      const i = (cls * dimA + ta) * dimR + tensR[j]! + 1;
      mass[i] = mass[i]! + a.p * r.p;
    }
  }
  return { actorDice: maxA, reactorDice: maxR, tracked: true, dimA, dimR, mass };
}

/** A pool reduced to what the literal unopposed reading looks at: its highest die and its natural 10s. */
export interface HighestOutcome {
  readonly highest: number;
  readonly tens: number;
  readonly p: number;
}

/** Highest die and tens of n independent d10s. */
export function highestOfRoll(n: number): HighestOutcome[] {
  if (n === 0) return [{ highest: 0, tens: 0, p: 1 }];
  const out: HighestOutcome[] = [];
  for (let f = 1; f <= 9; f++) out.push({ highest: f, tens: 0, p: (f / 10) ** n - ((f - 1) / 10) ** n });
  let binom = n;
  for (let c = 1; c <= n; c++) {
    out.push({ highest: 10, tens: c, p: binom * 0.1 ** c * 0.9 ** (n - c) });
    binom = (binom * (n - c)) / (c + 1);
  }
  return out;
}

export function highestOfDistribution(dist: readonly PoolOutcome[]): HighestOutcome[] {
  const by = new Map<number, HighestOutcome>();
  for (const o of dist) {
    const highest = o.dice[0] ?? 0;
    const tens = countTens(o.dice);
    const key = highest * 10000 + tens;
    const had = by.get(key);
    by.set(key, { highest, tens, p: (had?.p ?? 0) + o.p });
  }
  return [...by.values()];
}

/** A pool with the given highest die and tens: all compareHighestMeets reads. */
function standIn(h: HighestOutcome): number[] {
  return h.highest === 0 ? [] : h.highest === 10 ? new Array<number>(h.tens).fill(10) : [h.highest];
}

/** The literal reading (core-2011 "Unopposed Challenges", "Roll the Challenge"), class by class. */
export function foldHighest(player: readonly HighestOutcome[], playerModifier: number, gm: readonly HighestOutcome[], difficulty: number, table: VerdictTable, tally: VerdictSink): void {
  for (const p of player) {
    const pd = standIn(p);
    for (const g of gm) {
      const raw = compareHighestMeets(pd, playerModifier, standIn(g), difficulty);
      tally.add(table.verdict(classOfRaw(raw)), p.p * g.p);
    }
  }
}
