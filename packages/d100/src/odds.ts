import type { DiceSource } from '@personae/dice';
import { attackModifiers, evasionModifiers, resolveAttack, type AttackResult, type AttackSpec } from './attack';
import { resolveTest } from './test';
import type { Fighter } from './fighter';
import { LOCATION_TABLE } from './location';
import type { D100Options } from './options';

/**
 * Exact odds of one attack before it is rolled: every attack roll, every evasion roll and every
 * location, each with its exact weight, run through the same `resolveAttack` the table uses (so the
 * odds and the rules cannot drift apart). Location draws are enumerated by table row, which gives
 * the same outcome for every number of the row.
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
/** The d100 rolls grouped by what they decide: one representative roll per group, weighted by its size. */
function classes(key: (roll: number) => string): { v: number; w: number }[] {
  const groups = new Map<string, { v: number; w: number }>();
  for (let roll = 1; roll <= 100; roll++) {
    const k = key(roll);
    const g = groups.get(k);
    if (g) g.w += 1 / 100;
    else groups.set(k, { v: roll, w: 1 / 100 });
  }
  return [...groups.values()];
}

const locationRows = LOCATION_TABLE.map((r) => ({ v: r.from, w: (r.to - r.from + 1) / 100 }));

export function attackOdds(attacker: Fighter, defender: Fighter, spec: AttackSpec, options: D100Options, protector: Fighter | null = null): AttackOdds {
  let hit = 0, critical = 0, fumble = 0, stagger = 0, out = 0, paths = 0;
  const wounds: Record<number, number> = {};
  const expected = { light: 0, heavy: 0, deadly: 0, persona: 0 };
  const record = (r: AttackResult, w: number): void => {
    paths++;
    if (r.hit) hit += w;
    if (r.critical) critical += w;
    if (r.fumble) fumble += w;
    const o = r.repelled ? null : r.outcome;
    if (o?.staggered) stagger += w;
    if (protector ? r.protector?.out && !protector.out : r.defender.out && !defender.out) out += w;
    const lost = o ? o.losses.filter((l) => !l.blocked) : [];
    const n = lost.length + (o?.personaWounds ?? 0);
    wounds[n] = (wounds[n] ?? 0) + w;
    for (const l of lost) expected[l.track] += w;
    expected.persona += w * (o?.personaWounds ?? 0);
  };
  // Rolls that give the same test result give the same attack, so each class is walked once with its
  // weight; under reversed-attack-roll the attack roll also names the location and every roll is walked.
  const attackMods = attackModifiers(attacker, defender, spec, options);
  const attackRolls =
    options.hitLocation === 'reversed-attack-roll' ? d100 : classes((roll) => { const t = resolveTest(spec.attackTarget, roll, attackMods, options); return `${t.success}|${t.degrees}|${t.critical}|${t.fumble}`; });
  const evasionMods = evasionModifiers(defender, spec, options);
  const evasionRolls = spec.evasionTarget === null ? d100 : classes((roll) => { const t = resolveTest(spec.evasionTarget!, roll, evasionMods, options); return `${t.success}|${t.degrees}`; });
  // Walk the draws in the order resolveAttack makes them; a draw it does not make is not branched on.
  const walk = (prefix: number[], w: number): void => {
    const s = scripted(prefix);
    const r = resolveAttack(attacker, defender, spec, s.dice, options, protector);
    if (s.used() <= prefix.length) return record(r, w);
    const what = r.draws[prefix.length];
    const next = what === 'attack' ? attackRolls : what === 'evasion' ? evasionRolls : locationRows;
    for (const b of next) walk([...prefix, b.v], w * b.w);
  };
  walk([], 1);
  return { hit, critical, fumble, stagger, out, wounds, expected, paths };
}
