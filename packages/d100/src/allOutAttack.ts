import { RuleError } from '@personae/core';
import { AILMENTS } from './ailments';
import type { Fighter } from './fighter';
import type { D100Options } from './options';
import { ruleCitation } from './rules';
import { resolveTest, type TestResult } from './test';
import { hasBruisedRib } from './injuries';
import { bruisedRibBeforeLast, layWounds } from './attack';
import { modifier } from '@personae/core';

/**
 * The All Out Attack (d100-combat-rules.txt, "All Out Attack"): with every enemy Staggered, a One
 * More may start it; at least two participants each test Melee, Ballistic or Magic with one
 * Advantage; every enemy takes one wound per participant plus one per degree of success of the best
 * successful test, those extra wounds at most twice the participants; the enemies struck lose
 * Staggered, and each participant loses 2 Stress plus 1 per enemy it took out. The wounds fall as any
 * attack's do (an equipped Persona first, Fate Points blocking Heavy wounds), but the attack has no hit
 * location: its Heavy wounds give body Injuries, or none (option aoaInjury).
 */
export interface AoaParticipant {
  readonly fighter: Fighter;
  /** The Score used (Melee, Ballistic or Magic). */
  readonly target: number;
  readonly roll: number;
}

export interface AoaResult {
  readonly tests: readonly TestResult[];
  readonly bestDegrees: number;
  readonly woundsEach: number;
  readonly enemies: readonly Fighter[];
  readonly participants: readonly Fighter[];
  readonly killed: readonly string[];
  /** Fate Points each enemy spent blocking Heavy wounds, as its player declared ("Fate Points", Block Heavy Wound); only those that spent any. */
  readonly fateSpent: Readonly<Record<string, number>>;
}

export function allEnemiesStaggered(enemies: readonly Fighter[]): boolean {
  const standing = enemies.filter((e) => !e.out);
  return standing.length > 0 && standing.every((e) => e.ailments.some((a) => a.name === 'staggered'));
}

export function resolveAllOutAttack(participants: readonly AoaParticipant[], enemies: readonly Fighter[], options: D100Options): AoaResult {
  const cite = ruleCitation('allOutAttack');
  if (participants.length < 2) throw new RuleError('aoa-too-few', `an All Out Attack needs at least two participants, got ${participants.length}`, 'participants', cite);
  if (!allEnemiesStaggered(enemies)) {
    const up = enemies.filter((e) => !e.out && !e.ailments.some((a) => a.name === AILMENTS.staggered.name)).map((e) => e.name);
    throw new RuleError('aoa-not-all-staggered', `an All Out Attack needs every enemy Staggered; not Staggered: ${up.join(', ')}`, 'enemies', cite);
  }
  const tests = participants.map((p) => resolveTest(p.target, p.roll, [modifier('advantage', 'All Out Attack', 10)], options));
  const successes = tests.filter((t) => t.success);
  const bestDegrees = successes.length ? Math.max(...successes.map((t) => t.degreesOfSuccess)) : 0;
  const n = participants.length;
  const woundsEach = n + Math.min(bestDegrees, 2 * n);
  const killed: string[] = [];
  const fateSpent: Record<string, number> = {};
  const struck = enemies.map((e) => {
    if (e.out) return e;
    // option aoaInjury: the attack names no location; its Heavy wounds are body wounds, or give no Injury
    const at = { location: options.aoaInjury === 'body' ? ('body' as const) : null };
    // option aoaSavage (U32): 4 or more wounds make it Savage, or not
    const lay = (wounds: number) => layWounds(e, wounds, options.aoaSavage === 'four-wounds-savage' && wounds >= 4 ? 1 : 0, at, options);
    // "Wounds and Injury", Bruised Rib: one wound more for an enemy carrying one, counted like the rest
    const ribbed = hasBruisedRib(e.injuries, e.injuriesIgnored);
    // "Wounds and Personas": an equipped Persona takes the wounds first, as from any attack
    let laid = lay(woundsEach + (ribbed ? 1 : 0));
    // option injuryTiming (U34), per-wound: a Bruised Rib the attack itself gives adds its wound when a later wound follows
    if (at.location && options.injuryTiming === 'per-wound' && !ribbed && bruisedRibBeforeLast(e, laid.losses, 'body')) laid = lay(woundsEach + 1);
    if (laid.fateSpent) fateSpent[e.id] = laid.fateSpent;
    const t = laid.target;
    if (t.out) killed.push(e.id);
    // Drowsed and Frozen end when the sufferer takes damage (option takesDamage: a wound, or any hit)
    const tookDamage = options.takesDamage === 'hit' || laid.personaWounds + laid.losses.filter((l) => !l.blocked).length > 0;
    return { ...t, stress: t.stress + laid.stress, ailments: t.ailments.filter((a) => a.name !== 'staggered' && !(AILMENTS[a.name].endsOn === 'wound' && tookDamage)) };
  });
  // the seed counts enemies killed per participant without saying who killed whom: each participant counts them all
  const after = participants.map((p) => ({ ...p.fighter, stress: Math.max(0, p.fighter.stress - 2 - killed.length) }));
  return { tests, bestDegrees, woundsEach, enemies: struck, participants: after, killed, fateSpent };
}
