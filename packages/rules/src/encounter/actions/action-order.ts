import { getCharacter, type Batch } from '../batch';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import { endTurn } from '../turns';

// personae-core-2011.txt "The Action Order, and Actions": the GM may set the order; a turn ends.

export function setOrder(b: Batch, command: CommandOf<'set-order'>): void {
  const now = b.now;
  if (!now.combat) throw new RuleError('not-violent', 'the action order is set in a violent encounter', 'type', rule('core', 'The Action Order, and Actions'));
  const seen = new Set<string>();
  for (const [i, id] of command.order.entries()) {
    getCharacter(now, id, `order[${i}]`);
    if (seen.has(id)) throw new RuleError('duplicate-character', `${id} appears twice in the order`, `order[${i}]`);
    seen.add(id);
  }
  const missing = now.combat.order.filter((id) => !seen.has(id) && now.characters[id]?.present);
  if (missing.length) throw new RuleError('order-incomplete', `the order leaves out ${missing.join(', ')}`, 'order');
  b.emit({ type: 'order-changed', order: command.order, reason: 'set by the GM' });
}

export function finishTurn(b: Batch, command: CommandOf<'end-turn'>): void {
  const combat = b.now.combat;
  if (!combat) throw new RuleError('not-violent', 'turns are taken in a violent encounter', 'type', rule('core', 'The Action Order, and Actions'));
  if (command.actor !== 'gm' && command.actor !== combat.turn.actor) {
    const actor = b.now.characters[combat.turn.actor];
    throw new RuleError('out-of-turn', `it is ${actor?.def.name ?? combat.turn.actor}'s turn`, 'actor', rule('core', 'The Action Order, and Actions'));
  }
  endTurn(b);
}
