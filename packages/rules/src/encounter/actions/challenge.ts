import { formatCitation, withArticle } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { resolveChallenge, type ChallengeResult, type OpposedChallengeSpec, concertedEffort } from '../../challenge';
import type { Labeled } from '../../effects';
import { periodKey } from '../../time';
import { getCharacter, type Batch } from '../batch';
import { findSkill, potentialThresholdOf, type AttributeKey, type SkillUse } from '../combatant';
import type { CommandOf } from '../commands';
import { bankCriticals, spend } from '../criticals';
import { RuleError, rule } from '../errors';
import type { ChallengeKind } from '../events';
import { buildSide, type BuiltSide, type SideRequest } from '../sides';
import type { CharacterState, Snapshot } from '../state';
import { actorPool, targetPool } from '../pools';
import { takeAction } from '../turns';
import { assistants, assistNote } from './assist';
import type { Concerted } from './concerted-effort';
import { steerWithCriticals, type Spending } from './critical-spending';
import { countExpertise, expertise } from './expertise';
import { followUpNote, followUpTaken } from './follow-up';
import { checkAbilityLimit, checkAbilityUses, recordAbility } from './special-abilities';

/**
 * Issuing a challenge (personae-core-2011.txt "The Challenge"): the one pipeline every action that
 * rolls against an opponent goes through. An action (attack, power, interaction, inquiry) names its
 * plans, one per target, with the skill and attribute on each side; this module checks assistants,
 * Expertise, special abilities and criticals, records what is used, rolls, and logs the result.
 */

export type ChallengeCommand = CommandOf<'attack'> | CommandOf<'power'> | CommandOf<'interact'> | CommandOf<'inquire'>;

/** A side of a challenge before its dice: who, with what skill and attribute, and notes for the log. */
export interface Answer {
  readonly skill: SkillUse;
  readonly attribute: AttributeKey;
  readonly notes: string[];
}

export interface Plan {
  readonly kind: ChallengeKind;
  readonly who: CharacterState;
  readonly target: CharacterState;
  readonly actor: Answer;
  readonly reactor: Answer;
  readonly purpose: string;
}

export interface Ran {
  readonly result: ChallengeResult;
  readonly actorSide: BuiltSide;
}

export function targetsOf(cmd: { target?: string | undefined; targets?: string[] | undefined }, fallback?: string): string[] {
  const list = cmd.targets ?? (cmd.target ? [cmd.target] : fallback ? [fallback] : []);
  if (list.length === 0) throw new RuleError('no-target', 'name the target ("target") or targets ("targets")', 'target');
  if (new Set(list).size !== list.length) throw new RuleError('duplicate-target', 'a target is named twice', 'targets');
  return list;
}

export function opponent(now: Snapshot, id: string, who: CharacterState, field: string): CharacterState {
  const t = getCharacter(now, id, field);
  if (!t.present) throw new RuleError('not-present', `${t.def.name} is not in this scene`, field);
  if (t.def.id === who.def.id) throw new RuleError('self-target', `${who.def.name} cannot challenge itself`, field, rule('core', 'The Challenge'));
  if (t.status === 'dead') throw new RuleError('target-dead', `${t.def.name} is dead`, field, rule('core', 'Injury and Death'));
  return t;
}

/** The sides of the challenge to the `k`-th target, each rolling its named pool (encounter/pools.ts). */
function sideRequests(cmd: ChallengeCommand, plan: Plan, k: number, extra: { actorMods: Labeled[]; expertise?: { name: string; dice: number }; reactorExpertise?: { name: string; dice: number } }) {
  const actorReq: SideRequest = {
    who: plan.who,
    skill: plan.actor.skill,
    attribute: plan.actor.attribute,
    role: 'issue',
    kind: plan.kind,
    abilities: cmd.abilities ?? [],
    ...(extra.expertise ? { expertise: extra.expertise } : {}),
    modifiers: [...(cmd.modifiers ?? []), ...extra.actorMods],
    dicePool: actorPool(plan.target.def.id, k),
  };
  const reactorReq: SideRequest = {
    who: plan.target,
    skill: plan.reactor.skill,
    attribute: plan.reactor.attribute,
    role: 'answer',
    kind: plan.kind,
    abilities: cmd.reactorAbilities ?? [],
    ...(extra.reactorExpertise ? { expertise: extra.reactorExpertise } : {}),
    modifiers: cmd.reactorModifiers ?? [],
    dicePool: targetPool(plan.target.def.id),
    answeringAttack: plan.kind === 'attack',
  };
  return { actorReq, reactorReq };
}

/**
 * Issue the challenges of one action: one per target (one actor against several reactors is a
 * challenge to each of them, each rolled), with assistants or a concerted effort on the actor's
 * side. Every check runs before the first event, so a refused action leaves no trace.
 */
export function runChallenges(
  b: Batch,
  cmd: ChallengeCommand,
  plans: readonly Plan[],
  dice: DiceSource,
  opts: { concerted?: Concerted | undefined; spend?: Spending | undefined; what: string; usesAction: boolean },
  onResult: (plan: Plan, ran: Ran) => void,
): void {
  const now = b.now;
  const who = plans[0]!.who;
  const helpers = assistants(b, who, cmd.assistants, plans.map((p) => p.target.def.id), plans[0]!.kind, plans[0]!.actor.skill.name);
  const actorExpertise = expertise(b, who, cmd.expertise, 'expertise');
  const critBonus: Labeled[] = opts.spend && opts.spend.bonus > 0 ? [{ value: opts.spend.bonus, source: 'criticals spent' }] : [];
  // Build every side first: unknown abilities and limits are refused before anything is recorded.
  const built = plans.map((plan, k) => {
    const reactorExpertise = k === 0 ? expertise(b, plan.target, cmd.reactorExpertise, 'reactorExpertise') : undefined;
    const { actorReq, reactorReq } = sideRequests(cmd, plan, k, {
      actorMods: critBonus,
      ...(actorExpertise ? { expertise: actorExpertise } : {}),
      ...(reactorExpertise ? { reactorExpertise } : {}),
    });
    const actorSide = buildSide(now, actorReq, 'abilities');
    const reactorSide = buildSide(now, reactorReq, 'reactorAbilities');
    const withSpend = opts.spend?.ability ? [...actorSide.chosen, opts.spend.ability] : actorSide.chosen;
    checkAbilityLimit(b, who, withSpend, 'abilities');
    checkAbilityLimit(b, plan.target, reactorSide.chosen, 'reactorAbilities');
    checkAbilityUses(now, who, withSpend, 'abilities');
    checkAbilityUses(now, plan.target, reactorSide.chosen, 'reactorAbilities');
    return { plan, actorSide, reactorSide, reactorExpertise, withSpend };
  });

  // A follow-up (Taunt's attack, Misdirection's challenge) is issued at once, spending no action.
  const follow = followUpTaken(now, cmd);
  takeAction(b, who, opts.what, opts.usesAction && !follow);
  if (follow) b.emit({ type: 'follow-up-ended', actor: follow.actor, reactor: follow.reactor, ability: follow.ability, taken: true, reason: 'issued' });
  if (built[0]) recordAbility(b, who, built[0].withSpend);
  countExpertise(b, who, actorExpertise);
  for (const a of helpers) if (now.combat?.assists[a.who.def.id] !== undefined) b.emit({ type: 'assist-spent', actor: a.who.def.id });
  if (opts.concerted) {
    b.emit({ type: 'usage-counted', key: `concerted|${periodKey(now.clock, 'scene')}`, what: `concerted effort led by ${who.def.name}` });
    if (b.now.combat) {
      for (const c of opts.concerted.participants.slice(1)) b.emit({ type: 'action-spent-ahead', actor: c.def.id, reason: `contributed to ${who.def.name}'s concerted effort` });
    }
  }
  const special = opts.spend?.special;
  if (opts.spend && special) spend(b, opts.spend.bank, who.def.id, special.count, special.purpose, special.toGm ? { toGm: true } : {});
  const mechanical = (opts.spend?.before ?? 0) - (special?.count ?? 0);
  if (opts.spend && mechanical > 0) {
    const why = opts.spend.automatic
      ? `automatic success${opts.spend.byDefault ? ' (option criticalDefaultUse = automatic-success)' : ''}`
      : `+${opts.spend.bonus} to the result`;
    spend(b, opts.spend.bank, who.def.id, mechanical, why);
  }
  // A critical spent ahead with spend-criticals (option criticalDefaultUse): this challenge succeeds.
  const readied = who.readiedSuccess;
  if (readied) b.emit({ type: 'readied-success-used', actor: who.def.id });
  const automatic = opts.spend?.automatic ? 'a critical spent before rolling' : readied ? 'a critical spent ahead for this challenge' : null;

  for (const { plan, actorSide, reactorSide, reactorExpertise } of built) {
    recordAbility(b, plan.target, reactorSide.chosen);
    countExpertise(b, plan.target, reactorExpertise);
    let actorSpec = actorSide.spec;
    const notes = [...plan.actor.notes, ...plan.reactor.notes, ...actorSide.notes, ...reactorSide.notes, ...assistNote(helpers), ...(follow ? [followUpNote(now, follow)] : [])];
    if (follow?.reroll) {
      const forced = { ...follow.reroll, source: `${follow.ability} (follow-up)` };
      actorSpec = { ...actorSpec, forceRerolls: [...(actorSpec.forceRerolls ?? []), forced] };
    }
    if (opts.concerted) {
      const [lead, ...rest] = opts.concerted.participants.map((c) => {
        const s = findSkill(c.def, plan.actor.skill.name);
        return { name: c.def.name, rating: s ? s.dice : 0, potentialThreshold: potentialThresholdOf(c.def, now.options) };
      });
      const ce = concertedEffort(lead!, rest, plan.actor.skill.name);
      actorSpec = { ...actorSpec, pool: { ...ce.pool, penaltyDice: actorSpec.pool.penaltyDice ?? [] } };
      notes.push(`${ce.explanation} (${formatCitation(rule('v4', 'Concerted Effort'))}).`);
    }
    const spec: OpposedChallengeSpec = {
      actor: actorSpec,
      reactor: reactorSide.spec,
      ...(helpers.length ? { assistants: helpers.map((h) => ({ name: h.who.def.name })) } : {}),
      ...(actorSide.steer.length ? { steer: actorSide.steer } : {}),
      ...(automatic ? { automaticSuccess: { source: automatic } } : {}),
    };
    let result = resolveChallenge(spec, dice, now.options);
    if (opts.spend && opts.spend.steer > 0) result = steerWithCriticals(b, who, opts.spend, result, actorSide.steer);
    b.emit({
      type: 'challenge-resolved',
      kind: plan.kind,
      actor: who.def.id,
      reactor: plan.target.def.id,
      skill: plan.actor.skill.name,
      reactorSkill: plan.reactor.skill.name,
      purpose: plan.purpose,
      result,
      notes,
    });
    bankCriticals(b, who, result.criticals.actor, `natural 10s issuing ${withArticle(`${plan.kind} challenge`)}`);
    bankCriticals(b, b.now.characters[plan.target.def.id]!, result.criticals.reactor, `natural 10s answering ${withArticle(`${plan.kind} challenge`)}`);
    onResult(plan, { result, actorSide });
  }
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
