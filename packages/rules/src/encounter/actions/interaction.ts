import { formatCitation } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { resolveSubsequent } from '../../challenge';
import type { Batch } from '../batch';
import { same, skillUse, type AttributeKey } from '../combatant';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import type { CharacterState } from '../state';
import { takeAction } from '../turns';
import { afterInteractionWon, requireTurnOrFollowUp } from './follow-up';
import { cap, opponent, runChallenges, type Plan } from './challenge';
import { concerted } from './concerted-effort';
import { spending } from './critical-spending';
import { obstacleAnswer } from './obstacles';

// Interaction Challenges (personae-core-2011.txt "Non-Violent Encounters", "Subsequent vs. Additional Challenges").

const NON_VIOLENT = rule('core', 'Non-Violent Encounters');

/** Fields a subsequent challenge cannot take: it compares the roll already made, nothing is added. */
const NOT_IN_SUBSEQUENT = ['abilities', 'reactorAbilities', 'expertise', 'reactorExpertise', 'assistants', 'concerted', 'spend', 'modifiers', 'reactorModifiers', 'reactorSkill', 'reactorAttribute', 'attribute'] as const;

/**
 * personae-core-2011.txt "Non-Violent Encounters": an extended non-violent challenge may be "one
 * initial Challenge followed by a series of subsequent Challenges" (option nonViolentExtended =
 * subsequent-challenges). "Subsequent vs. Additional Challenges": issued immediately after the
 * initial one, with the next-highest dice rolled, and answered the same way: no die is rolled.
 */
function interactSubsequent(b: Batch, cmd: CommandOf<'interact'>, who: CharacterState, target: CharacterState): void {
  const now = b.now;
  const option = now.options.nonViolentExtended;
  if (option !== 'subsequent-challenges') {
    throw new RuleError(
      'subsequent-not-used',
      `this table resolves extended non-violent challenges ${option === 'health-track' ? 'with a resolve track' : 'as separate challenges'} (option nonViolentExtended = ${option}): each interaction is rolled afresh`,
      'subsequent',
      NON_VIOLENT,
    );
  }
  if (now.clock.stage !== 'non-violent') {
    throw new RuleError('not-non-violent', `subsequent challenges carry on an extended challenge in a non-violent encounter; this is a ${now.clock.stage === 'scene' ? 'scene' : `${now.clock.stage} encounter`}`, 'subsequent', NON_VIOLENT);
  }
  const section = rule('core', 'Subsequent vs. Additional Challenges');
  const last = now.lastChallenge;
  if (!last || last.kind !== 'interaction' || last.actor !== who.def.id || last.reactor !== target.def.id || last.encounter !== now.clock.encounter) {
    throw new RuleError(
      'no-initial-challenge',
      `a subsequent challenge follows at once an Interaction Challenge ${who.def.name} issued to ${target.def.name} in this encounter, and the last challenge at the table was not one`,
      'subsequent',
      section,
    );
  }
  if (!same(last.skill, cmd.skill)) throw new RuleError('subsequent-skill', `the initial challenge was issued with ${last.skill}; a subsequent one carries on with the same roll`, 'skill', section);
  const extra = NOT_IN_SUBSEQUENT.find((f) => cmd[f] !== undefined);
  if (extra) throw new RuleError('subsequent-fixed', `a subsequent challenge compares the next-highest dice of the roll already made: "${extra}" cannot be given`, extra, section);
  if (last.result.actor.dice.length < 2) {
    throw new RuleError('no-dice-left', `${who.def.name} has no next-highest die left in that roll to issue a subsequent challenge with`, 'subsequent', section);
  }
  takeAction(b, who, `presses on against ${target.def.name} with a subsequent challenge`);
  const result = resolveSubsequent(last.result, now.options);
  b.emit({
    type: 'challenge-resolved',
    kind: 'interaction',
    actor: who.def.id,
    reactor: target.def.id,
    skill: last.skill,
    reactorSkill: last.reactorSkill,
    purpose: cmd.purpose ?? `press on against ${target.def.name}`,
    result,
    notes: [
      `Subsequent challenge (${formatCitation(section)}; option nonViolentExtended = subsequent-challenges): the next-highest dice of the previous roll, with the same modifiers.`,
      'The natural 10s of that roll were counted when it was made: no critical is banked again.',
    ],
  });
}

/**
 * personae-core-2011.txt "Non-Violent Encounters": "a system similar to a character's Health" for
 * extended non-violent challenges (option nonViolentExtended = health-track). Each interaction
 * challenge won against a character wears its resolve by one; the track holds 1 + the attribute it
 * answered with (as hits before Injured hold 1 + Stature), set when it is first worn in the encounter.
 */
function wearResolve(b: Batch, by: CharacterState, target: CharacterState, attribute: AttributeKey): void {
  const now = b.now;
  const encounter = now.clock.encounter;
  const track = target.resolve?.encounter === encounter ? target.resolve : null;
  const size = track?.size ?? 1 + Math.max(0, target.def.attributes[attribute]);
  const before = track?.worn ?? 0;
  const after = Math.min(size, before + 1);
  b.emit({ type: 'resolve-worn', target: target.def.id, by: by.def.id, encounter, before, after, size, attribute: track?.attribute ?? attribute, yielded: after >= size });
}

export function interact(b: Batch, cmd: CommandOf<'interact'>, dice: DiceSource): void {
  const now = b.now;
  const who = requireTurnOrFollowUp(b, cmd, 'actor');
  const target = opponent(now, cmd.target, who, 'target');
  if (cmd.subsequent) {
    interactSubsequent(b, cmd, who, target);
    return;
  }
  const track = now.options.nonViolentExtended === 'health-track' && now.clock.stage === 'non-violent';
  if (track && target.resolve?.encounter === now.clock.encounter && target.resolve.yielded) {
    throw new RuleError('yielded', `${target.def.name} has already yielded in this encounter (option nonViolentExtended = health-track)`, 'target', NON_VIOLENT);
  }
  const skill = skillUse(who.def, cmd.skill, cmd.attribute ?? 'competence');
  const attribute = cmd.attribute ?? skill.attribute;
  // personae-core-2011.txt "Defense": Interaction Challenges are answered with Resist + Power by default.
  const obstacle = target.def.obstacle && cmd.reactorAttribute === undefined ? obstacleAnswer(now, target, cmd.reactorSkill, 'reactorSkill') : null;
  const reactorSkill = obstacle?.skill ?? skillUse(target.def, cmd.reactorSkill ?? 'Resist', cmd.reactorAttribute ?? 'power');
  const reactorAttribute = cmd.reactorAttribute ?? reactorSkill.attribute;
  const together = concerted(b, who, cmd.concerted, [target.def.id]);
  const spent = spending(now, who, cmd.spend, skill.name, 'interaction', 1);
  const plan: Plan = {
    kind: 'interaction',
    who,
    target,
    actor: { skill, attribute, notes: [`${who.def.name} issues an Interaction Challenge: ${skill.name} + ${cap(attribute)}.`] },
    reactor: obstacle ?? { skill: reactorSkill, attribute: reactorAttribute, notes: [`${target.def.name} answers with ${reactorSkill.name} + ${cap(reactorAttribute)}.`] },
    purpose: cmd.purpose ?? `sway ${target.def.name}`,
  };
  runChallenges(b, cmd, [plan], dice, { concerted: together, spend: spent, what: `challenges ${target.def.name} with ${skill.name}`, usesAction: true }, (_plan, ran) => {
    if (ran.result.outcome !== 'success') return;
    if (track) wearResolve(b, who, b.now.characters[target.def.id]!, reactorAttribute);
    afterInteractionWon(b, b.now.characters[who.def.id]!, b.now.characters[target.def.id]!, ran.actorSide.chosen, skill.name, dice);
  });
}
