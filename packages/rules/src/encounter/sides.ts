import { withArticle } from '@personae/core';
import type { ChallengeSideSpec } from '../challenge';
import { applyEffects, effectChangesRoll, effectInScope, type AbilityEffect, type EffectContext, type Labeled, type ScopeKind } from '../effects';
import type { TableOptions } from '../options';
import {
  ATTRIBUTE_LABEL,
  findAbility,
  potentialOf,
  potentialThresholdOf,
  same,
  type AttributeKey,
  type Combatant,
  type CombatantAbility,
  type SkillUse,
} from './combatant';
import { RuleError, rule } from './errors';
import type { ChallengeKind } from './events';
import { STATUS_LABEL, STATUS_PENALTY } from './injury';
import type { CharacterState, Snapshot } from './state';

/**
 * One side of a challenge in an encounter, built from the character and what it uses: the skill and
 * attribute, the injury penalty, Qualities (always in effect), the special ability chosen for the
 * turn, powers in effect on it, an Expertise talent, and circumstantial additions. The result is a
 * ChallengeSideSpec for the challenge engine, so every roll in an encounter is resolved by the same
 * code as outside one.
 */
export interface SideRequest {
  readonly who: CharacterState;
  readonly skill: SkillUse;
  readonly attribute: AttributeKey;
  readonly role: 'issue' | 'answer';
  readonly kind: SideKind;
  /** Special abilities named for this challenge. */
  readonly abilities?: readonly string[];
  readonly expertise?: { readonly name: string; readonly dice: number };
  readonly modifiers?: readonly Labeled[];
  /** The named pool its dice come from (dice entered at the table for it, else the host's). */
  readonly dicePool?: string;
  /** Armor counts only when answering an attack. */
  readonly answeringAttack?: boolean;
}

export interface BuiltSide {
  readonly spec: ChallengeSideSpec;
  /** Abilities the character chose (not Qualities): at most one a turn. */
  readonly chosen: readonly CombatantAbility[];
  /** Extra hits a successful attack or harmful power inflicts, with sources. */
  readonly extraHits: readonly Labeled[];
  readonly steer: readonly Labeled[];
  readonly notes: readonly string[];
}

/** The kinds of challenge a side is built for: the encounter's own, and any other challenge an effect's scope can name. */
export type SideKind = ChallengeKind | 'other';

export const SCOPE_KIND: Record<SideKind, ScopeKind> = {
  attack: 'attack',
  power: 'power',
  interaction: 'interaction',
  virtual: 'interaction',
  recovery: 'recovery',
  unopposed: 'other',
  other: 'other',
};

/** Whether an effect's scope covers this challenge (personae-core-2011.txt "What Special Abilities Can Do"). */
export function inScope(effect: AbilityEffect, skill: string, kind: SideKind, role: 'issue' | 'answer'): boolean {
  return effectInScope(effect, skill, SCOPE_KIND[kind], role);
}

/** The challenge as effects see it; armor counts when answering an attack (personae-core-2011.txt "Armor"). */
export function effectContext(role: 'issue' | 'answer', kind: SideKind, answeringAttack = role === 'answer' && kind === 'attack'): EffectContext {
  return { role, kind: SCOPE_KIND[kind], answeringAttack };
}

/** Whether an effect does anything for this side of this challenge (its scope aside), as buildSide applies it. */
export function changesRoll(effect: AbilityEffect, role: 'issue' | 'answer', kind: SideKind): boolean {
  return effectChangesRoll(effect, effectContext(role, kind));
}

/** The dice penalty of the status in effect (personae-core-2011.txt "Injury and Death"; option injuryPenaltyLasts). */
export function statusPenalty(now: Snapshot, who: CharacterState): Labeled[] {
  const n = STATUS_PENALTY[who.status];
  if (n === 0) return [];
  if (now.options.injuryPenaltyLasts === 'violent-encounters' && now.clock.stage !== 'violent') return [];
  return [{ value: n, source: STATUS_LABEL[who.status] }];
}

/** Effects granted by powers in effect on this character. */
export function grantedEffects(now: Snapshot, who: CharacterState): { effect: AbilityEffect; source: string }[] {
  return now.effects.flatMap((e) => (e.grants && e.targets.includes(who.def.id) ? [{ effect: e.grants, source: `${e.power} (power of ${now.characters[e.owner]?.def.name ?? e.owner})` }] : []));
}

/**
 * personae-core-2011.txt "Scope of Special Abilities": in an encounter a character benefits from one
 * special ability in the course of its turn; Qualities are always in effect besides it.
 */
export function checkOneSpecialAbility(who: CharacterState, chosen: readonly CombatantAbility[], field: string): void {
  const names = [...new Set(chosen.filter((a) => !a.quality).map((a) => a.name))];
  if (names.length > 1) {
    throw new RuleError(
      'second-special-ability',
      `${who.def.name} may benefit from one special ability a turn, not ${names.join(' and ')} (Qualities excepted)`,
      field,
      rule('core', 'Scope of Special Abilities'),
    );
  }
}

/** What a side is built from besides the request: the character, the table's options, its injury penalty and the powers in effect on it. */
export interface SideBasis {
  readonly def: Combatant;
  readonly options: TableOptions;
  readonly penaltyDice: readonly Labeled[];
  readonly granted: readonly { readonly effect: AbilityEffect; readonly source: string }[];
}

/** One side of a challenge in an encounter: the character's state there supplies the penalty and the powers in effect. */
export function buildSide(now: Snapshot, req: SideRequest, field: string): BuiltSide {
  return composeSide({ def: req.who.def, options: now.options, penaltyDice: statusPenalty(now, req.who), granted: grantedEffects(now, req.who) }, req, field);
}

/**
 * One side of a challenge from a character, wherever it is rolled: the encounter and the browser's
 * roller both build sides with this function, so the same abilities give the same dice and modifiers.
 */
export function composeSide(basis: SideBasis, req: Omit<SideRequest, 'who'>, field: string): BuiltSide {
  const c = basis.def;
  const notes: string[] = [];
  const chosen: CombatantAbility[] = [];
  for (const [i, name] of (req.abilities ?? []).entries()) {
    const a = findAbility(c, name);
    if (!a) throw new RuleError('unknown-ability', `${c.name} has no special ability "${name}"`, `${field}[${i}]`);
    if (a.effect.type === 'critical-spend') {
      throw new RuleError('ability-spends-criticals', `${a.name} is used by spending criticals ("spend": {"ability": "${a.name}"})`, `${field}[${i}]`);
    }
    if (!inScope(a.effect, req.skill.name, req.kind, req.role)) {
      throw new RuleError(
        'ability-not-applicable',
        `${a.name} does not apply when ${req.role === 'issue' ? 'issuing' : 'answering'} ${withArticle(`${req.kind} challenge`)} with ${req.skill.name}`,
        `${field}[${i}]`,
        rule('core', 'What Special Abilities Can Do'),
      );
    }
    if (a.quality) notes.push(`${a.name} is a Quality: always in effect, it needs no choosing.`);
    else if (!chosen.includes(a)) chosen.push(a);
  }
  const active: { effect: AbilityEffect; source: string }[] = [
    ...c.specialAbilities.filter((a) => a.quality && inScope(a.effect, req.skill.name, req.kind, req.role)).map((a) => ({ effect: a.effect, source: `${a.name} (Quality)` })),
    ...chosen.map((a) => ({ effect: a.effect, source: a.name })),
    ...basis.granted.filter((g) => inScope(g.effect, req.skill.name, req.kind, req.role)),
  ];

  const parts = applyEffects(active, effectContext(req.role, req.kind, req.answeringAttack ?? false));
  const bonusDice: Labeled[] = [...parts.bonusDice];
  const modifiers: Labeled[] = [{ value: c.attributes[req.attribute], source: ATTRIBUTE_LABEL[req.attribute] }, ...parts.modifiers];
  const { rerolls, forceRerolls, extraHits, steer } = parts;
  const ignore = parts.ignoreOpponentDice.reduce((n, d) => n + d.value, 0);
  const ignoreSources = parts.ignoreOpponentDice.map((d) => d.source);
  if (req.expertise) bonusDice.push({ value: req.expertise.dice, source: `Expertise: ${req.expertise.name}` });
  modifiers.push(...(req.modifiers ?? []));
  const options: TableOptions = basis.options;
  const spec: ChallengeSideSpec = {
    name: c.name,
    pool: {
      base: req.skill.dice,
      baseSource: req.skill.unskilled ? `${req.skill.name} (unskilled)` : req.skill.name,
      bonusDice,
      penaltyDice: [...basis.penaltyDice],
      maxDice: potentialOf(c, options) + 2,
    },
    modifiers,
    ...(rerolls.length ? { rerolls } : {}),
    ...(forceRerolls.length ? { forceRerolls } : {}),
    ...(ignore > 0 ? { ignoreOpponentDice: { value: ignore, source: ignoreSources.join(', ') } } : {}),
    potentialThreshold: potentialThresholdOf(c, options),
    ...(req.dicePool ? { dicePool: req.dicePool } : {}),
  };
  return { spec, chosen, extraHits, steer, notes };
}

