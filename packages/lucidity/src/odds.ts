import { RuleError } from '@personae/core';
import { damageAfterProtection } from './combat';
import type { LucidityOptions } from './options';
import { beats } from './roll';

/** A distribution over whole numbers: value -> chance. */
export type Distribution = Map<number, number>;

function add(dist: Distribution, value: number, p: number): void {
  dist.set(value, (dist.get(value) ?? 0) + p);
}

/** The highest of n d6 (n >= 1): P(max = x) = (x/6)^n - ((x-1)/6)^n. */
export function highestD6(n: number): Distribution {
  const out: Distribution = new Map();
  if (n <= 0) return new Map([[0, 1]]);
  for (let x = 1; x <= 6; x++) out.set(x, (x / 6) ** n - ((x - 1) / 6) ** n);
  return out;
}

/** What the buff and break d6s add to a roll, as a distribution (seed "Buffs and Breaks"; option buffBreakDice). */
export function buffBreakDistribution(buffs: number, breaks: number, opts: Pick<LucidityOptions, 'buffBreakDice'>): Distribution {
  if (opts.buffBreakDice === 'cancel-then-highest') {
    const net = buffs - breaks;
    if (net === 0) return new Map([[0, 1]]);
    const out: Distribution = new Map();
    for (const [x, p] of highestD6(Math.abs(net))) add(out, net > 0 ? x : -x, p);
    return out;
  }
  const out: Distribution = new Map();
  for (const [b, pb] of highestD6(buffs)) for (const [k, pk] of highestD6(breaks)) add(out, b - k, pb * pk);
  return out;
}

/** The chance a d20 + modifier (+ buffs/breaks) succeeds against a target. */
export function rollChance(input: { modifier: number; target: number; buffs?: number; breaks?: number }, opts: LucidityOptions): number {
  let p = 0;
  const bb = buffBreakDistribution(input.buffs ?? 0, input.breaks ?? 0, opts);
  for (let d = 1; d <= 20; d++) {
    for (const [v, pv] of bb) {
      const ok = beats(d + input.modifier + v, input.target, opts) || (opts.criticalSuccess === 'natural-20' && d === 20);
      if (ok) p += pv / 20;
    }
  }
  return p;
}

/** The chance a Lucidity roll succeeds (d20 less buffs, plus breaks, at or under the target). */
export function lucidityChance(input: { current: number; attribute?: number; gmModifier?: number; buffs?: number; breaks?: number }, opts: LucidityOptions): number {
  const target = (opts.lucidityTarget === 'lucidity-plus-attribute' ? input.current + (input.attribute ?? 0) : input.current) + (input.gmModifier ?? 0);
  let p = 0;
  for (const [v, pv] of buffBreakDistribution(input.buffs ?? 0, input.breaks ?? 0, opts)) {
    for (let d = 1; d <= 20; d++) if (d - v <= target) p += pv / 20;
  }
  return p;
}

/** A damage expression: dice and whole numbers joined by + and -, e.g. "1d8+2", "2d6-1", "5". */
export function damageDistribution(expr: string): Distribution {
  const text = expr.replace(/\s+/g, '');
  if (!/^[+-]?(\d*d\d+|\d+)([+-](\d*d\d+|\d+))*$/i.test(text)) {
    throw new RuleError('lucidity.damage', `damage: "${expr}" is not a damage expression such as 1d8+2`, 'damage');
  }
  let dist: Distribution = new Map([[0, 1]]);
  for (const m of text.matchAll(/([+-]?)(\d*d\d+|\d+)/gi)) {
    const sign = m[1] === '-' ? -1 : 1;
    const term = m[2]!.toLowerCase();
    let termDist: Distribution;
    if (term.includes('d')) {
      const [c, s] = term.split('d');
      const count = c === '' ? 1 : Number(c);
      const sides = Number(s);
      if (count < 1 || count > 20 || sides < 2 || sides > 100) throw new RuleError('lucidity.damage', `damage: "${term}" needs 1 to 20 dice of 2 to 100 sides`, 'damage');
      termDist = new Map([[0, 1]]);
      for (let i = 0; i < count; i++) {
        const next: Distribution = new Map();
        for (const [v, p] of termDist) for (let f = 1; f <= sides; f++) add(next, v + f, p / sides);
        termDist = next;
      }
    } else termDist = new Map([[Number(term), 1]]);
    const next: Distribution = new Map();
    for (const [a, pa] of dist) for (const [b, pb] of termDist) add(next, a + sign * b, pa * pb);
    dist = next;
  }
  return dist;
}

export interface AttackOdds {
  readonly hit: number;
  /** Chance of each damage taken (0 included, misses counted as 0). */
  readonly damageTaken: readonly { readonly damage: number; readonly chance: number }[];
  readonly expectedDamage: number;
  /** The chance of taking at least 1 damage (an exploit may follow under exploitTrigger=damage-dealt). */
  readonly damaging: number;
}

/**
 * Exact odds of an attack: the d20 with its modifier and buffs/breaks against Defense, Penetration from
 * the margin (plus bonuses), then the damage distribution through the Protection procedure.
 */
export function attackOdds(
  input: { modifier: number; defense: number; damage: string; protection: number; buffs?: number; breaks?: number; penetrationBonus?: number },
  opts: LucidityOptions,
): AttackOdds {
  const dmg = damageDistribution(input.damage);
  const bb = buffBreakDistribution(input.buffs ?? 0, input.breaks ?? 0, opts);
  const taken: Distribution = new Map();
  let hit = 0;
  for (let d = 1; d <= 20; d++) {
    for (const [v, pv] of bb) {
      const p = pv / 20;
      const total = d + input.modifier + v;
      const hits = beats(total, input.defense, opts);
      if (!hits) {
        add(taken, 0, p);
        continue;
      }
      hit += p;
      const pen = total - input.defense + (input.penetrationBonus ?? 0);
      for (const [x, px] of dmg) add(taken, damageAfterProtection(Math.max(0, x), input.protection, pen, opts).damageTaken, p * px);
    }
  }
  const rows = [...taken.entries()].sort((a, b) => a[0] - b[0]).map(([damage, chance]) => ({ damage, chance }));
  return {
    hit,
    damageTaken: rows,
    expectedDamage: rows.reduce((s, r) => s + r.damage * r.chance, 0),
    damaging: rows.filter((r) => r.damage > 0).reduce((s, r) => s + r.chance, 0),
  };
}
