import { withArticle } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { escalationOrder, STAGE_LABEL, type Stage } from '../../time';
import { cannotAct, getCharacter, type Batch } from '../batch';
import { endEncounter } from '../clockwork';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import { applyStatusNow } from '../health';
import { actionOrder } from '../order';
import { beginRound } from '../turns';

// Escalation (personae-core-2011.txt "Escalation"; personae-v4-srd-playing.txt "The Challenge").

export function escalate(b: Batch, command: CommandOf<'escalate'>, dice: DiceSource): void {
  const now = b.now;
  const steps = escalationOrder(now.options);
  const from = now.clock.stage;
  const i = steps.indexOf(from);
  const j = steps.indexOf(command.to);
  const source = now.options.escalation === 'srd-v4' ? rule('v4', 'The Challenge') : rule('core', 'Escalation');
  if (j < 0) throw new RuleError('unknown-stage', `${withArticle(STAGE_LABEL[command.to])} is not a step of escalation ${now.options.escalation}`, 'to', source);
  if (j <= i) throw new RuleError('not-an-escalation', `the ${STAGE_LABEL[from]} is already at or past ${withArticle(STAGE_LABEL[command.to])}`, 'to', source);
  if (j > i + 1 && !now.options.escalationMaySkip) {
    throw new RuleError(
      'escalation-order',
      `${withArticle(STAGE_LABEL[from])} escalates to ${withArticle(STAGE_LABEL[steps[i + 1]!])} first (${steps.join(' -> ')}; option escalationMaySkip)`,
      'to',
      source,
    );
  }
  if (command.actor !== 'gm') {
    const who = getCharacter(now, command.actor, 'actor');
    const why = cannotAct(now, who);
    if (why) throw new RuleError(why.code, why.message, 'actor', why.rule);
  }
  enterStage(b, command.actor, command.to, dice, command.orderSkills);
}

/**
 * The encounter moves to `to` (a new encounter when it was a scene); entering a violent encounter
 * sets the action order and begins its first round.
 */
export function enterStage(b: Batch, by: string, to: Stage, dice: DiceSource, orderSkills?: Record<string, string>): void {
  const now = b.now;
  const from = now.clock.stage;
  const encounter = from === 'scene' ? now.clock.encounter + 1 : now.clock.encounter;
  b.emit({ type: 'escalated', by, from, to, encounter });
  if (to === 'violent') {
    const escalator = by === 'gm' ? null : by;
    const order = actionOrder(b.now, escalator, orderSkills ?? {}, dice);
    b.emit({ type: 'order-set', method: b.now.options.actionOrder, order: order.order, rolls: order.rolls, explanation: order.explanation });
    beginRound(b, 1);
  }
}

/** srd-v4 "The Challenge": encounters can be de-escalated as it makes sense in the fiction. */
export function deescalate(b: Batch, command: CommandOf<'de-escalate'>): void {
  const now = b.now;
  if (now.options.escalation !== 'srd-v4') {
    throw new RuleError('de-escalation', 'only escalation srd-v4 de-escalates an encounter; end the encounter instead', 'type', rule('v4', 'The Challenge'));
  }
  const steps = escalationOrder(now.options);
  const from = now.clock.stage;
  if (steps.indexOf(command.to) >= steps.indexOf(from)) {
    throw new RuleError('not-a-de-escalation', `${withArticle(STAGE_LABEL[from])} cannot de-escalate to ${withArticle(STAGE_LABEL[command.to])}`, 'to');
  }
  if (command.to === 'scene') {
    endEncounter(b);
    return;
  }
  if (from === 'violent') endEncounterRound(b);
  b.emit({ type: 'de-escalated', by: command.actor, from, to: command.to as Stage });
}

/** Leaving violence mid-round: statuses waiting for the end of the round take effect. */
function endEncounterRound(b: Batch): void {
  for (const id of b.now.roster) applyStatusNow(b, id, 'the violent encounter ends');
}

export function finishEncounter(b: Batch): void {
  if (b.now.clock.stage === 'scene') throw new RuleError('no-encounter', 'there is no encounter to end', 'type');
  endEncounter(b);
}
