import type { Batch } from '../batch';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import { requireTurn, takeAction } from '../turns';

// Keeping up and ending powers in effect (personae-core-2011.txt "Duration / Duration Identifiers").

/** personae-core-2011.txt "Duration / Duration Identifiers": a Maintain power costs an action each round. */
export function maintain(b: Batch, command: CommandOf<'maintain'>): void {
  const now = b.now;
  const effect = now.effects.find((e) => e.id === command.effect);
  if (!effect) throw new RuleError('unknown-effect', `there is no power in effect with id ${command.effect}`, 'effect');
  if (effect.owner !== command.actor) throw new RuleError('not-owner', `${effect.power} was started by ${effect.owner}`, 'effect');
  if (effect.duration !== 'maintain') {
    throw new RuleError('not-maintained', `${effect.power} has ${effect.duration} duration and needs no keeping up`, 'effect', rule('core', 'Duration / Duration Identifiers'));
  }
  const who = requireTurn(b, command.actor, 'actor');
  const round = now.combat?.round ?? 0;
  if (effect.maintainedRound === round && now.combat) {
    throw new RuleError('already-maintained', `${effect.power} is already kept up this round`, 'effect', rule('core', 'Duration / Duration Identifiers'));
  }
  takeAction(b, who, `keeps up ${effect.power}`);
  b.emit({ type: 'effect-maintained', id: effect.id, round });
}

export function endEffect(b: Batch, command: CommandOf<'end-effect'>): void {
  const effect = b.now.effects.find((e) => e.id === command.effect);
  if (!effect) throw new RuleError('unknown-effect', `there is no power in effect with id ${command.effect}`, 'effect');
  if (command.actor !== 'gm' && effect.owner !== command.actor) throw new RuleError('not-owner', `${effect.power} was started by ${effect.owner}`, 'effect');
  b.emit({ type: 'effect-ended', id: effect.id, reason: command.actor === 'gm' ? 'ended by the GM' : 'ended by its practitioner' });
}
