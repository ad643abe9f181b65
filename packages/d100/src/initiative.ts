import { RuleError } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { bonus, type Fighter } from './fighter';
import { drawIn } from './draws';
import type { D100Options } from './options';
import { ruleCitation } from './rules';

/**
 * Initiative (d100-combat-rules.txt, "Combat Structure", Step Three): the Agility or Perception
 * Bonus (option `initiativeBonus`, D7: the higher by default) plus 1 per starting Advantage. Ties go to the higher Score behind the bonus,
 * then to the larger Fate Point pool; the seed's sentence breaks off there, and the last tie is
 * settled by option `initiativeLastTie` (U13): a d10 roll-off (higher first, rolled again while
 * equal), the party's side first (then a roll-off), or the GM's order.
 */
export interface InitiativeEntry {
  readonly id: string;
  readonly initiative: number;
  readonly score: number;
  readonly fate: number;
  /** The roll-off dice, when a roll-off was needed. */
  readonly rollOff: readonly number[];
}

export function initiativeOf(f: Fighter, startingAdvantages = 0, from: D100Options['initiativeBonus'] = 'higher'): { initiative: number; score: number } {
  const ag = f.scores.agility;
  const pe = f.scores.perception;
  const score = from === 'agility' ? ag : from === 'perception' ? pe : bonus(ag) > bonus(pe) || (bonus(ag) === bonus(pe) && ag >= pe) ? ag : pe;
  return { initiative: bonus(score) + startingAdvantages, score };
}

export interface LastTie {
  readonly method: D100Options['initiativeLastTie'];
  /** The GM's order for ties under method `gm`: every character of a tied group must be named. */
  readonly tieOrder?: readonly string[];
}

export function initiativeOrder(fighters: readonly Fighter[], dice: DiceSource, startingAdvantages: Readonly<Record<string, number>> = {}, lastTie: LastTie = { method: 'roll-off' }, from: D100Options['initiativeBonus'] = 'higher'): InitiativeEntry[] {
  const entries = fighters.map((f) => ({ id: f.id, ...initiativeOf(f, startingAdvantages[f.id] ?? 0, from), fate: f.fate.current, rollOff: [] as number[] }));
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
    out.push(...breakTie(sorted.slice(i, j), fighters, dice, lastTie));
    i = j;
  }
  return out;
}

function breakTie<E extends { id: string; rollOff: number[] }>(group: E[], fighters: readonly Fighter[], dice: DiceSource, lastTie: LastTie): E[] {
  if (group.length < 2) return group;
  if (lastTie.method === 'gm') {
    const order = lastTie.tieOrder ?? [];
    const missing = group.filter((e) => !order.includes(e.id)).map((e) => e.id);
    if (missing.length) throw new RuleError('initiative-tie', `tieOrder: ${group.map((e) => e.id).join(', ')} tie on initiative, Score and Fate Points; under initiativeLastTie=gm the GM orders them (missing: ${missing.join(', ')})`, 'tieOrder', ruleCitation('initiative'));
    return [...group].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  }
  if (lastTie.method === 'players-first') {
    const side = (e: E) => fighters.find((f) => f.id === e.id)?.side;
    const party = group.filter((e) => side(e) === 'pc');
    const rest = group.filter((e) => side(e) !== 'pc');
    return [...rollOff(party, dice), ...rollOff(rest, dice)];
  }
  return rollOff(group, dice);
}

/** Orders a tied group by d10 roll-offs, higher first; those still tied roll again. */
function rollOff<E extends { id: string; rollOff: number[] }>(group: E[], dice: DiceSource): E[] {
  if (group.length < 2) return group;
  // Each roll-off die is its character's own, pool "initiative:ID" (./pools.ts)
  const rolled = group.map((e) => ({ e, r: drawIn(dice, `initiative:${e.id}`).die(10) }));
  for (const { e, r } of rolled) e.rollOff.push(r);
  const values = [...new Set(rolled.map((x) => x.r))].sort((a, b) => b - a);
  return values.flatMap((v) => rollOff(rolled.filter((x) => x.r === v).map((x) => x.e), dice));
}
