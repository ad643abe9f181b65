import { modifier, RuleError, type Modifier } from '@personae/core';
import { resolveAttack } from './combat';
import type { LucidityOptions } from './options';
import { beats, d20Succeeds } from './roll';

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

/**
 * The chance a d20 + modifier (+ buffs/breaks) succeeds against a target: every d20 face and every
 * buff/break result, a natural 20 included under criticalSuccess=natural-20 ("Buffs and Breaks",
 * "Hitting 0 Health"). `noBreaks` drops the breaks before cancelling (Mental Clarity, "Creating Traits").
 */
export function rollChance(input: { modifier: number; target: number; buffs?: number; breaks?: number; noBreaks?: boolean }, opts: LucidityOptions): number {
  let p = 0;
  const bb = buffBreakDistribution(input.buffs ?? 0, input.noBreaks ? 0 : (input.breaks ?? 0), opts);
  for (let d = 1; d <= 20; d++) {
    for (const [v, pv] of bb) if (d20Succeeds(d, d + input.modifier + v, input.target, opts)) p += pv / 20;
  }
  return p;
}

/** The target of a Lucidity roll ("Lucidity"): Current Lucidity, plus the attribute under lucidityTarget=lucidity-plus-attribute, plus the GM's modifier. */
export function lucidityRollTarget(input: { current: number; attribute?: number; gmModifier?: number }, opts: Pick<LucidityOptions, 'lucidityTarget'>): number {
  return (opts.lucidityTarget === 'lucidity-plus-attribute' ? input.current + (input.attribute ?? 0) : input.current) + (input.gmModifier ?? 0);
}

/** The chance a Lucidity roll succeeds (d20 less buffs, plus breaks, at or under the target). */
export function lucidityChance(input: { current: number; attribute?: number; gmModifier?: number; buffs?: number; breaks?: number }, opts: LucidityOptions): number {
  const target = lucidityRollTarget(input, opts);
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

/**
 * The damage of a critical hit (option critEffect; inventory U16): the expression itself, each die at
 * its highest (max-damage: "1d8+2" -> "8+2"), or each die rolled twice (double-dice: "1d8+2" -> "2d8+2").
 */
export function criticalDamage(expr: string, opts: Pick<LucidityOptions, 'critEffect'>): string {
  if (opts.critEffect === 'none') return expr;
  damageDistribution(expr); // refuses what is not a damage expression
  return expr.replace(/\s+/g, '').replace(/(\d*)d(\d+)/gi, (_, c: string, sides: string) => {
    const count = c === '' ? 1 : Number(c);
    return opts.critEffect === 'max-damage' ? String(count * Number(sides)) : `${count * 2}d${sides}`;
  });
}

/** Whether a successful attack roll is a critical success: a natural 20 (option criticalSuccess), or guaranteed. */
export function isCriticalHit(d20: number, guaranteed: boolean, opts: Pick<LucidityOptions, 'criticalSuccess'>): boolean {
  return guaranteed || (opts.criticalSuccess === 'natural-20' && d20 === 20);
}

export interface AttackOdds {
  readonly hit: number;
  /** Chance of each damage taken (0 included, misses counted as 0). */
  readonly damageTaken: readonly { readonly damage: number; readonly chance: number }[];
  readonly expectedDamage: number;
  /** The chance of taking at least 1 damage (an exploit may follow under exploitTrigger=damage-dealt). */
  readonly damaging: number;
}

export interface AttackOddsInput {
  /** Everything added to the attack's d20 (attribute, skill rank, trait bonuses). */
  readonly modifier: number;
  readonly defense: number;
  /** The damage expression, e.g. "1d8+2". */
  readonly damage: string;
  readonly protection: number;
  readonly buffs?: number;
  readonly breaks?: number;
  /** Added to Penetration on a hit (weapon, Impaler, Improvised Fighter, 1 on 1). */
  readonly penetrationBonus?: number;
  readonly penetrationModifiers?: readonly Modifier[];
  readonly damageModifiers?: readonly Modifier[];
  readonly protectionModifiers?: readonly Modifier[];
  readonly ignoreProtection?: boolean;
  /** Every roll succeeds as a natural 20 with no d6 (the final turn at a Degree of Failure of 5+). */
  readonly guaranteed?: boolean;
  /**
   * A Lucidity roll in place of the attack roll ("Lucidity", option lucidityOnAttack): the d20 less buffs,
   * plus breaks, at or under `target` hits with the attack total `total` (null: Defense + 1, the least
   * hit), as a critical hit when `critical`. The d20 modifier plays no part.
   */
  readonly lucidity?: { readonly target: number; readonly total: number | null; readonly critical: boolean };
}

/**
 * A Lucidity roll in place of an attack roll ("Lucidity", option lucidityOnAttack), as `attackOdds` takes
 * it: its target from Current Lucidity and the weapon's attribute, and the hit it makes: Penetration 1
 * (bare-hit), or the total of a natural 20 with the attack's modifiers, a critical where natural 20s are
 * (natural-20). Refused where the table does not allow it (not-allowed).
 */
export function lucidityInPlace(input: { current: number; attribute: number; modifier: number }, opts: LucidityOptions): NonNullable<AttackOddsInput['lucidity']> {
  if (opts.lucidityOnAttack === 'not-allowed') throw new RuleError('lucidity.option', 'useLucidity: a Lucidity roll cannot replace an attack roll at this table (option lucidityOnAttack)', 'useLucidity');
  const natural = opts.lucidityOnAttack === 'natural-20';
  return { target: lucidityRollTarget(input, opts), total: natural ? 20 + input.modifier : null, critical: natural && opts.criticalSuccess === 'natural-20' };
}

/**
 * Exact odds of an attack ("How Combat Works"): every d20 face with its modifier and every buff/break
 * result against Defense, then every damage result through the same `resolveAttack` a table uses. A
 * natural 20 that does not exceed Defense still hits under criticalSuccess=natural-20, with
 * Penetration 1 (Defense + 1, the least hit), like the final turn's guaranteed success.
 */
export function attackOdds(input: AttackOddsInput, opts: LucidityOptions): AttackOdds {
  const dmg = damageDistribution(input.damage);
  const critDmg = opts.critEffect === 'none' ? dmg : damageDistribution(criticalDamage(input.damage, opts));
  const faces = input.guaranteed ? [{ d: 20, p: 1 }] : Array.from({ length: 20 }, (_, i) => ({ d: i + 1, p: 1 / 20 }));
  const bb = input.guaranteed ? new Map([[0, 1]]) : buffBreakDistribution(input.buffs ?? 0, input.breaks ?? 0, opts);
  const penetrationModifiers = [...(input.penetrationModifiers ?? []), ...(input.penetrationBonus ? [modifier('penetration', 'bonus', input.penetrationBonus)] : [])];
  const taken: Distribution = new Map();
  let hit = 0;
  const lucidity = input.guaranteed ? undefined : input.lucidity;
  for (const { d, p: pd } of faces) {
    for (const [v, pv] of bb) {
      const p = pd * pv;
      const total = lucidity ? (lucidity.total ?? input.defense + 1) : d + input.modifier + v;
      if (lucidity ? d - v > lucidity.target : !input.guaranteed && !d20Succeeds(d, total, input.defense, opts)) {
        add(taken, 0, p);
        continue;
      }
      hit += p;
      const attack = beats(total, input.defense, opts) ? total : input.defense + 1;
      for (const [x, px] of (lucidity ? lucidity.critical : isCriticalHit(d, input.guaranteed === true, opts)) ? critDmg : dmg) {
        const r = resolveAttack(
          {
            attack,
            defense: input.defense,
            damage: Math.max(0, x),
            protection: input.protection,
            penetrationModifiers,
            ...(input.damageModifiers ? { damageModifiers: input.damageModifiers } : {}),
            ...(input.protectionModifiers ? { protectionModifiers: input.protectionModifiers } : {}),
            ...(input.ignoreProtection ? { ignoreProtection: true } : {}),
          },
          opts,
        );
        add(taken, r.damageTaken, p * px);
      }
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
