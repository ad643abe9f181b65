import type { DiceSource } from '@personae/dice';
import type { Labeled } from '../../effects';
import { inEncounter } from '../../time';
import { getCharacter, type Batch } from '../batch';
import { allows, findPower, skillUse, type CombatantPower } from '../combatant';
import type { CommandOf, DefenseChoice } from '../commands';
import { spend } from '../criticals';
import { RuleError, rule } from '../errors';
import { heal, inflict } from '../health';
import { buildSide } from '../sides';
import type { CharacterState, Snapshot } from '../state';
import { requireTurn, takeAction } from '../turns';
import { followUpTaken, requireTurnOrFollowUp } from './follow-up';
import { opponent, runChallenges, targetsOf, type Answer, type Plan } from './challenge';
import { spending } from './critical-spending';
import { obstacleAnswer } from './obstacles';
import { activePower, declaredOrAutonomic, passive } from './defense';
import { checkAbilityLimit, checkAbilityUses, recordAbility } from './special-abilities';

// Power Challenges and powers (personae-core-2011.txt "Power Combat", "Duration / Duration Identifiers").

function powerDefense(now: Snapshot, c: CharacterState, cmd: CommandOf<'power'>): Answer {
  if (c.def.obstacle) return obstacleAnswer(now, c, cmd.defenseSkill, 'defenseSkill');
  const declared = now.combat?.defenses[c.def.id];
  const choice: DefenseChoice = cmd.defense ?? (declared?.kind === 'power' ? 'power' : 'resist');
  const section = rule('core', 'Power Combat');
  switch (choice) {
    case 'resist':
      return { skill: skillUse(c.def, 'Resist', 'power'), attribute: 'power', notes: [`${c.def.name} resists: Resist + Power.`] };
    case 'dodge':
    case 'block': {
      const ability = allows(c.def, choice === 'dodge' ? 'dodge-powers' : 'block-powers');
      if (!ability) {
        throw new RuleError(`no-${choice === 'dodge' ? 'dodging' : 'blocking'}-powers`, `${c.def.name} cannot ${choice} a supernatural attack without a power or special ability that allows it`, 'defense', section);
      }
      const p = passive(c, choice);
      return { ...p, notes: [...p.notes, `${ability.name} allows it.`] };
    }
    case 'power': {
      const d = declaredOrAutonomic(now, c, 'power', 'defense');
      return activePower(now, c, cmd.defensePower, d, 'defensePower');
    }
    case 'parry':
    case 'shield':
      throw new RuleError('defense-not-allowed', `${c.def.name} cannot ${choice === 'parry' ? 'parry' : 'block'} a power: it is resisted`, 'defense', section);
  }
}

function startEffect(b: Batch, who: CharacterState, p: CombatantPower, targets: readonly string[]): void {
  const now = b.now;
  // Outside a violent encounter an Instant power is over as soon as it is used.
  if (p.duration === 'instant' && !now.combat) return;
  b.emit({
    type: 'effect-started',
    effect: {
      id: now.nextEffectId,
      power: p.name,
      owner: who.def.id,
      targets,
      duration: p.duration,
      ...(p.grants ? { grants: p.grants } : {}),
      maintainedRound: now.combat?.round ?? 0,
      encounter: inEncounter(now.clock) ? now.clock.encounter : null,
    },
  });
}

export function power(b: Batch, cmd: CommandOf<'power'>, dice: DiceSource): void {
  const now = b.now;
  const who = requireTurnOrFollowUp(b, cmd, 'actor');
  const p = findPower(who.def, cmd.power);
  if (!p) throw new RuleError('unknown-power', `${who.def.name} has no power "${cmd.power}"`, 'power');
  const ids = targetsOf(cmd, p.kind === 'harm' ? undefined : who.def.id);
  if (ids.length > p.targets) {
    throw new RuleError('too-many-targets', `${p.name} affects ${p.targets} target${p.targets === 1 ? '' : 's'}, ${ids.length} named`, 'targets', rule('core', 'The Framework of Advancement'));
  }
  const challenged = p.challenge ?? p.kind === 'harm';
  const what = `uses ${p.name}`;
  if (!challenged) {
    const follow = followUpTaken(now, cmd);
    if (follow) {
      // Not a challenge: it is no follow-up, and is used on the character's turn like any power.
      requireTurn(b, cmd.actor, 'actor');
      b.emit({ type: 'follow-up-ended', actor: follow.actor, reactor: follow.reactor, ability: follow.ability, taken: false, reason: `${p.name} is used without a challenge` });
    }
    const targets = ids.map((id, i) => {
      const t = getCharacter(now, id, cmd.targets ? `targets[${i}]` : 'target');
      if (!t.present) throw new RuleError('not-present', `${t.def.name} is not in this scene`, 'target');
      return t;
    });
    if (cmd.spend) throw new RuleError('spend-not-applicable', `${p.name} is used without a challenge: no criticals to spend on it`, 'spend');
    const actorSide = buildSide(now, { who, skill: skillUse(who.def, p.skill, 'power'), attribute: 'power', role: 'issue', kind: 'power', abilities: cmd.abilities ?? [] }, 'abilities');
    checkAbilityLimit(b, who, actorSide.chosen, 'abilities');
    checkAbilityUses(now, who, actorSide.chosen, 'abilities');
    takeAction(b, who, `${what} on ${targets.map((t) => t.def.name).join(', ')}`);
    recordAbility(b, who, actorSide.chosen);
    if (p.kind === 'heal') for (const t of targets) heal(b, who.def.id, t.def.id, p.heals ?? { hits: 1, statuses: 0 }, p.name);
    else if (p.kind === 'harm') for (const t of targets) inflict(b, who.def.id, t.def.id, [{ value: p.hits, source: p.name }]);
    startEffect(b, who, p, targets.map((t) => t.def.id));
    return;
  }
  const targets = ids.map((id, i) => opponent(now, id, who, cmd.targets ? `targets[${i}]` : 'target'));
  const skill = skillUse(who.def, p.skill, 'power');
  const spent = spending(now, who, cmd.spend, skill.name, 'power', targets.length);
  const plans: Plan[] = targets.map((t) => ({
    kind: 'power',
    who,
    target: t,
    // personae-core-2011.txt "Power Combat": the practitioner's supernatural skill + Power against Resist + Power.
    actor: { skill, attribute: 'power', notes: [`${who.def.name} issues a Power Challenge with ${p.name}: ${skill.name} + Power.`] },
    reactor: powerDefense(now, t, cmd),
    purpose: cmd.purpose ?? (p.kind === 'harm' ? `strike ${t.def.name} with ${p.name}` : `bring ${p.name} upon ${t.def.name}`),
  }));
  const affected: string[] = [];
  runChallenges(b, cmd, plans, dice, { spend: spent, what, usesAction: true }, (plan, ran) => {
    if (ran.result.outcome !== 'success') return;
    affected.push(plan.target.def.id);
    if (p.kind === 'harm') {
      const hits: Labeled[] = [{ value: p.hits, source: p.name }, ...ran.actorSide.extraHits];
      if (spent && spent.extraHits > 0) {
        spend(b, spent.bank, who.def.id, spent.extraHits, `${spent.extraHits} extra hit(s) on ${plan.target.def.name}`);
        hits.push({ value: spent.extraHits, source: 'criticals spent' });
      }
      inflict(b, who.def.id, plan.target.def.id, hits);
    } else if (p.kind === 'heal') {
      heal(b, who.def.id, plan.target.def.id, p.heals ?? { hits: 1, statuses: 0 }, p.name);
    }
  });
  if (p.kind !== 'harm' && affected.length) startEffect(b, who, p, affected);
}
