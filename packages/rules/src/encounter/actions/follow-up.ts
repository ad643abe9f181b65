import { formatCitation } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { cannotAct, getCharacter, type Batch } from '../batch';
import type { CombatantAbility } from '../combatant';
import { GM_COMMANDS, type EncounterCommand } from '../commands';
import { RuleError, rule } from '../errors';
import { inScope } from '../sides';
import type { CharacterState, FollowUp, Snapshot } from '../state';
import { requireTurn } from '../turns';
import { enterStage } from './escalation';

// Challenges that follow at once from a won Interaction Challenge (personae-core-2011.txt "What
// Special Abilities Can Do": Taunt and Misdirection).

export const FOLLOW_UP_RULE = rule('core', 'What Special Abilities Can Do');

const CHALLENGES: readonly EncounterCommand['type'][] = ['attack', 'power', 'interact'];

function targetIds(cmd: EncounterCommand): readonly string[] {
  if (cmd.type === 'attack' || cmd.type === 'power') return cmd.targets ?? (cmd.target ? [cmd.target] : []);
  if (cmd.type === 'interact') return [cmd.target];
  return [];
}

/**
 * The follow-up this command issues, if it does: a challenge from the follow-up's issuer to its one
 * reactor (for Taunt, an Attack Challenge). A subsequent interaction carries on the roll already made
 * and is not a new challenge.
 */
export function followUpTaken(now: Snapshot, cmd: EncounterCommand): FollowUp | null {
  const f = now.followUp;
  if (!f || cmd.actor !== f.actor || !CHALLENGES.includes(cmd.type)) return null;
  if (f.kind === 'taunt' && cmd.type !== 'attack') return null;
  if (cmd.type === 'interact' && cmd.subsequent) return null;
  const ids = targetIds(cmd);
  return ids.length === 1 && ids[0] === f.reactor ? f : null;
}

/**
 * Before any command: a follow-up is taken by the command that issues it, and lapses with any other.
 * A Taunt's attack is owed, so while its issuer can still make it, the characters' other commands wait
 * for it (the GM's own commands, undo among them, go ahead and end it).
 */
export function settleFollowUp(b: Batch, cmd: EncounterCommand): void {
  const now = b.now;
  const f = now.followUp;
  if (!f || followUpTaken(now, cmd)) return;
  const issuer = now.characters[f.actor];
  const reactor = now.characters[f.reactor];
  const byGm = GM_COMMANDS.includes(cmd.type) || cmd.actor === 'gm';
  const owed = f.kind === 'taunt' && issuer !== undefined && reactor !== undefined && cannotAct(now, issuer) === null && reactor.present && reactor.status !== 'dead';
  if (owed && !byGm) {
    throw new RuleError(
      'attack-owed',
      `${issuer.def.name} owes ${reactor.def.name} an immediate Attack Challenge (${f.ability}): it is made before anything else`,
      'type',
      FOLLOW_UP_RULE,
    );
  }
  const why = owed ? 'the GM moves the table on' : f.kind === 'taunt' ? `${issuer?.def.name ?? f.actor} can no longer attack` : `${issuer?.def.name ?? f.actor} did something else`;
  b.emit({ type: 'follow-up-ended', actor: f.actor, reactor: f.reactor, ability: f.ability, taken: false, reason: why });
}

/** The character issuing a challenge: out of turn when it issues a pending follow-up, otherwise on its turn. */
export function requireTurnOrFollowUp(b: Batch, cmd: EncounterCommand, field: string): CharacterState {
  if (!followUpTaken(b.now, cmd)) return requireTurn(b, cmd.actor, field);
  const who = getCharacter(b.now, cmd.actor, field);
  const why = cannotAct(b.now, who);
  if (why) throw new RuleError(why.code, why.message, field, why.rule);
  return who;
}

/** The Taunt or Misdirection abilities in effect for an Interaction Challenge issued with `skill`: those chosen, and Qualities. */
function abilitiesThatFollow(who: CharacterState, chosen: readonly CombatantAbility[], skill: string): CombatantAbility[] {
  const qualities = who.def.specialAbilities.filter((a) => a.quality && inScope(a.effect, skill, 'interaction', 'issue'));
  return [...chosen, ...qualities].filter((a) => a.effect.type === 'taunt' || a.effect.type === 'misdirection');
}

/**
 * An Interaction Challenge was won: Taunt escalates to a violent encounter (whatever steps lie between)
 * and makes the opponent owe an Attack Challenge at once; Misdirection offers a follow-up challenge.
 */
export function afterInteractionWon(b: Batch, who: CharacterState, target: CharacterState, chosen: readonly CombatantAbility[], skill: string, dice: DiceSource): void {
  const found = abilitiesThatFollow(who, chosen, skill);
  const taunt = found.find((a) => a.effect.type === 'taunt');
  if (taunt) {
    if (b.now.clock.stage !== 'violent') enterStage(b, who.def.id, 'violent', dice);
    const opponent = b.now.characters[target.def.id]!;
    if (cannotAct(b.now, opponent) === null) b.emit({ type: 'follow-up-pending', kind: 'taunt', ability: taunt.name, owner: who.def.id, actor: target.def.id, reactor: who.def.id });
    return;
  }
  const misdirection = found.find((a) => a.effect.type === 'misdirection');
  if (misdirection && misdirection.effect.type === 'misdirection') {
    const { dice: n, keep, mayTouchHighest } = misdirection.effect;
    b.emit({ type: 'follow-up-pending', kind: 'misdirection', ability: misdirection.name, owner: who.def.id, actor: who.def.id, reactor: target.def.id, reroll: { dice: n, keep, mayTouchHighest } });
  }
}

/** The note a follow-up challenge carries in the log. */
export function followUpNote(now: Snapshot, f: FollowUp): string {
  const name = (id: string) => now.characters[id]?.def.name ?? id;
  if (f.kind === 'taunt') return `${name(f.actor)} answers ${name(f.owner)}'s ${f.ability} with an immediate Attack Challenge, out of turn and without spending an action (${formatCitation(FOLLOW_UP_RULE)}).`;
  const r = f.reroll!;
  return `Follow-up challenge from ${f.ability} (${formatCitation(FOLLOW_UP_RULE)}): ${name(f.reactor)} must reroll ${r.dice === 1 ? 'one die' : `${r.dice} dice`} of its answer${r.mayTouchHighest ? '' : ' (not the highest)'}, keeping the ${r.keep} result; it spends no further action.`;
}
