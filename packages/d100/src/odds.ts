import type { DiceSource } from '@personae/dice';
import { attackModifiers, evasionModifiers, resolveAttack, type AttackResult, type AttackSpec } from './attack';
import { resolveOpposed, resolveTest } from './test';
import { makeFighter, type Fighter } from './fighter';
import type { Affinity, Element } from './elements';
import { LOCATION_TABLE } from './location';
import type { D100Options } from './options';

/**
 * Exact odds of one attack before it is rolled: every attack roll, every evasion roll and every
 * location, each with its exact weight, run through the same `resolveAttack` the table uses (so the
 * odds and the rules cannot drift apart). Location draws are enumerated by table row, which gives
 * the same outcome for every number of the row. Under opposedTie=reroll the pairs rolled again to break
 * a tie are walked too (up to TIE_REROLLS of them), grouped by whom they favour.
 */
export interface AttackOdds {
  readonly hit: number;
  readonly critical: number;
  readonly fumble: number;
  /** Chance the attack Staggers the target (and earns a One More). */
  readonly stagger: number;
  /** Chance the target ends out of the fight. */
  readonly out: number;
  /** Wounds the target loses (Persona wounds included), by count; sums to 1. */
  readonly wounds: Readonly<Record<number, number>>;
  /** Expected boxes lost on each track. */
  readonly expected: { readonly light: number; readonly heavy: number; readonly deadly: number; readonly persona: number };
  /** How many resolutions were enumerated. */
  readonly paths: number;
}

/** Dice that hand out the given values in order (1 past the end) and count how many were drawn. */
function scripted(values: readonly number[]): { dice: DiceSource; used: () => number } {
  let i = 0;
  return { dice: { kind: 'given', die: () => values[i++] ?? 1 }, used: () => i };
}

const d100: readonly { v: number; w: number }[] = Array.from({ length: 100 }, (_, k) => ({ v: k + 1, w: 1 / 100 }));
/** The d100 rolls grouped by what they decide: one representative roll per group, weighted by its size, with its rolls. */
function classes(key: (roll: number) => string): { v: number; w: number; rolls: number[] }[] {
  const groups = new Map<string, { v: number; w: number; rolls: number[] }>();
  for (let roll = 1; roll <= 100; roll++) {
    const k = key(roll);
    const g = groups.get(k);
    if (g) (g.w += 1 / 100), g.rolls.push(roll);
    else groups.set(k, { v: roll, w: 1 / 100, rolls: [roll] });
  }
  return [...groups.values()];
}

const locationRows = LOCATION_TABLE.map((r) => ({ v: r.from, w: (r.to - r.from + 1) / 100 }));

/** The figures of `AttackOdds` as they are summed, path by path. */
interface Tally {
  hit: number;
  critical: number;
  fumble: number;
  stagger: number;
  out: number;
  paths: number;
  wounds: Record<number, number>;
  expected: { light: number; heavy: number; deadly: number; persona: number };
}
const newTally = (): Tally => ({ hit: 0, critical: 0, fumble: 0, stagger: 0, out: 0, paths: 0, wounds: {}, expected: { light: 0, heavy: 0, deadly: 0, persona: 0 } });

/** Adds `part` (itself a sum of weighted paths) to `into`, scaled by `w`. */
function addTally(into: Tally, part: Tally, w: number): void {
  for (const k of ['hit', 'critical', 'fumble', 'stagger', 'out'] as const) into[k] += w * part[k];
  for (const [n, p] of Object.entries(part.wounds)) into.wounds[Number(n)] = (into.wounds[Number(n)] ?? 0) + w * p;
  for (const k of ['light', 'heavy', 'deadly', 'persona'] as const) into.expected[k] += w * part.expected[k];
}

/**
 * `fateReroll`: the attacker spends a Fate Point to roll a missed attack again (d100-combat-rules.txt
 * "Fate Points", Reroll), as the table's Reroll does: the evasion roll made stays, the roll the option
 * rerollKeeps names stands (the second, or the lower of the two), and the dice after it are new. Only a
 * miss is rolled again; an attack on a Condemned target that was already rolled twice cannot be.
 */
export function attackOdds(attacker: Fighter, defender: Fighter, spec: AttackSpec, options: D100Options, protector: Fighter | null = null, fateReroll = false): AttackOdds {
  const record = (t: Tally, r: AttackResult, w: number): void => {
    t.paths++;
    if (r.hit) t.hit += w;
    if (r.critical) t.critical += w;
    if (r.fumble) t.fumble += w;
    const o = r.repelled ? null : r.outcome;
    if (o?.staggered) t.stagger += w;
    if (protector ? r.protector?.out && !protector.out : r.defender.out && !defender.out) t.out += w;
    const lost = o ? o.losses.filter((l) => !l.blocked) : [];
    const n = lost.length + (o?.personaWounds ?? 0);
    t.wounds[n] = (t.wounds[n] ?? 0) + w;
    for (const l of lost) t.expected[l.track] += w;
    t.expected.persona += w * (o?.personaWounds ?? 0);
  };
  // Rolls that give the same test result give the same attack, so each class is walked once with its
  // weight; under reversed-attack-roll the attack roll also names the location and every roll is walked.
  const attackMods = attackModifiers(attacker, defender, spec, options);
  const attackKey = (roll: number): string => (options.hitLocation === 'reversed-attack-roll' ? String(roll) : (({ success, degrees, critical, fumble }) => `${success}|${degrees}|${critical}|${fumble}`)(resolveTest(spec.attackTarget, roll, attackMods, options)));
  const attackRolls = classes(attackKey);
  const classOf = new Map(attackRolls.flatMap((c) => c.rolls.map((roll) => [roll, c] as const)));
  const evasionMods = evasionModifiers(defender, spec, options);
  const evasionRolls = spec.evasionTarget === null ? d100 : classes((roll) => { const t = resolveTest(spec.evasionTarget!, roll, evasionMods, options); return `${t.success}|${t.degrees}`; });
  // Option opposedTie=reroll: a pair rolled again to break a tie only says who wins (or that the tie
  // stands), so the pairs are walked as three outcomes, each with one representative pair and its weight.
  let tiePairs: { a: number; e: number; w: number }[] | undefined;
  const tieOutcomes = (): { a: number; e: number; w: number }[] => {
    if (tiePairs) return tiePairs;
    const out = new Map<string, { a: number; e: number; w: number }>();
    for (const a of attackRolls) {
      const at = resolveTest(spec.attackTarget, a.v, attackMods, options);
      for (const e of evasionRolls) {
        const o = resolveOpposed(at, resolveTest(spec.evasionTarget!, e.v, evasionMods, options), { opposedTie: 'reactor' });
        const k = o.decidedBy === 'tie' ? 'tie' : String(o.actorWins);
        const g = out.get(k);
        if (g) g.w += a.w * e.w;
        else out.set(k, { a: a.v, e: e.v, w: a.w * e.w });
      }
    }
    return (tiePairs = [...out.values()]);
  };
  const total = newTally();
  // The attack again from a kept roll (and the evasion roll made, if any), as the Reroll resolves it: the
  // same for every roll of a class, so each class is walked once.
  const again = new Map<string, Tally>();
  const rerolled = (rep: number, evasion: number | undefined): Tally => {
    const key = `${rep}|${evasion ?? ''}`;
    let t = again.get(key);
    if (!t) {
      t = newTally();
      walk(evasion === undefined ? [rep] : [rep, evasion], 1, t, false);
      again.set(key, t);
    }
    return t;
  };
  // Walk the draws in the order resolveAttack makes them; a draw it does not make is not branched on.
  const walk = (prefix: number[], w: number, into: Tally, reroll: boolean): void => {
    const s = scripted(prefix);
    const r = resolveAttack(attacker, defender, spec, s.dice, options, protector);
    if (s.used() <= prefix.length) {
      if (!reroll || r.hit || r.condemnedRolls) return record(into, r, w);
      // A miss rolled again: each roll of the attack's class, then each second roll, with the roll kept.
      into.paths++;
      const evasion = r.draws[1] === 'evasion' ? prefix[1] : undefined;
      const members = classOf.get(prefix[0]!)!.rolls;
      const kept = new Map<number, number>();
      for (const first of members) {
        for (let second = 1; second <= 100; second++) {
          const rep = classOf.get(options.rerollKeeps === 'second' ? second : Math.min(first, second))!.v;
          kept.set(rep, (kept.get(rep) ?? 0) + w / members.length / 100);
        }
      }
      for (const [rep, p] of kept) addTally(into, rerolled(rep, evasion), p);
      return;
    }
    const what = r.draws[prefix.length];
    if (what === 'tie-attack') {
      for (const p of tieOutcomes()) walk([...prefix, p.a, p.e], w * p.w, into, reroll);
      return;
    }
    const next = what === 'attack' ? attackRolls : what === 'evasion' ? evasionRolls : locationRows;
    for (const b of next) walk([...prefix, b.v], w * b.w, into, reroll);
  };
  walk([], 1, total, fateReroll);
  for (const t of again.values()) total.paths += t.paths;
  const { hit, critical, fumble, stagger, out, wounds, expected, paths } = total;
  return { hit, critical, fumble, stagger, out, wounds, expected, paths };
}

/** One attack asked about without a table: the two tests' targets and what the hit meets (as `personae d100 odds` asks it). */
export interface AttackQuestion {
  /** The attack target (Melee, Ballistic or Magic, before Advantages). */
  readonly attack: number;
  /** The evasion target; null: the defender does not oppose. */
  readonly evasion: number | null;
  /** The damage value with every modifier but degrees and net Advantage (a melee Strength Bonus included). */
  readonly damage: number;
  readonly toughness: number;
  /** Armour on every location. */
  readonly armour: number;
  readonly element: Element;
  readonly affinity: Affinity;
  readonly advantages: number;
  readonly disadvantages: number;
  /** A Fate Point spent to roll a miss again. */
  readonly fateReroll?: boolean;
}

/**
 * The exact odds of an attack asked without a table: an attacker whose Strength Bonus is already in
 * `damage`, and a defender with the Toughness, Armour and affinity asked, under `options`.
 */
export function questionOdds(q: AttackQuestion, options: D100Options): AttackOdds {
  const scores = { melee: 0, ballistic: 0, magic: 0, strength: 0, toughness: q.toughness, agility: 0, intelligence: 0, perception: 0, willpower: 0, fellowship: 0 };
  const attacker = makeFighter({ id: 'attacker', scores: { ...scores, toughness: 30 } });
  const a = q.armour;
  const defender = makeFighter({ id: 'defender', side: 'enemy', scores, armour: { head: a, 'right-arm': a, 'left-arm': a, body: a, 'right-leg': a, 'left-leg': a }, affinities: q.element === 'almighty' ? {} : { [q.element]: q.affinity } });
  const spec: AttackSpec = {
    kind: q.element === 'melee' ? 'melee' : q.element === 'missile' ? 'ballistic' : 'magic',
    element: q.element,
    damage: q.damage,
    attackTarget: q.attack,
    evasionTarget: q.evasion,
    advantages: q.advantages ? [{ label: 'Advantage', count: q.advantages }] : [],
    disadvantages: q.disadvantages ? [{ label: 'Disadvantage', count: q.disadvantages }] : [],
  };
  return attackOdds(attacker, defender, spec, options, null, q.fateReroll ?? false);
}
