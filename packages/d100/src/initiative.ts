import type { DiceSource } from '@personae/dice';
import { bonus, type Fighter } from './fighter';

/**
 * Initiative (d100-combat-rules.txt, "Combat Structure", Step Three): the Agility or Perception
 * Bonus (the higher) plus 1 per starting Advantage. Ties go to the higher Score behind the bonus,
 * then to the larger Fate Point pool; the seed's sentence breaks off there, and the last tie is
 * settled by a d10 roll-off (higher first, rolled again while equal).
 */
export interface InitiativeEntry {
  readonly id: string;
  readonly initiative: number;
  readonly score: number;
  readonly fate: number;
  /** The roll-off dice, when a roll-off was needed. */
  readonly rollOff: readonly number[];
}

export function initiativeOf(f: Fighter, startingAdvantages = 0): { initiative: number; score: number } {
  const ag = f.scores.agility;
  const pe = f.scores.perception;
  const score = bonus(ag) > bonus(pe) || (bonus(ag) === bonus(pe) && ag >= pe) ? ag : pe;
  return { initiative: bonus(score) + startingAdvantages, score };
}

export function initiativeOrder(fighters: readonly Fighter[], dice: DiceSource, startingAdvantages: Readonly<Record<string, number>> = {}): InitiativeEntry[] {
  const entries = fighters.map((f) => ({ id: f.id, ...initiativeOf(f, startingAdvantages[f.id] ?? 0), fate: f.fate.current, rollOff: [] as number[] }));
  const key = (e: (typeof entries)[number]) => [e.initiative, e.score, e.fate];
  const cmp = (a: (typeof entries)[number], b: (typeof entries)[number]) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i]! - ka[i]!;
    return 0;
  };
  const sorted = [...entries].sort(cmp);
  const out: typeof entries = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && cmp(sorted[i]!, sorted[j]!) === 0) j++;
    out.push(...rollOff(sorted.slice(i, j), dice));
    i = j;
  }
  return out;
}

/** Orders a tied group by d10 roll-offs, higher first; those still tied roll again. */
function rollOff<E extends { rollOff: number[] }>(group: E[], dice: DiceSource): E[] {
  if (group.length < 2) return group;
  const rolled = group.map((e) => ({ e, r: dice.die(10) }));
  for (const { e, r } of rolled) e.rollOff.push(r);
  const values = [...new Set(rolled.map((x) => x.r))].sort((a, b) => b - a);
  return values.flatMap((v) => rollOff(rolled.filter((x) => x.r === v).map((x) => x.e), dice));
}
