import { getCharacter, type Batch } from '../batch';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import { talliedStatus } from '../health';
import type { Snapshot } from '../state';
import { requireTurn, takeAction } from '../turns';

/**
 * personae-core-2011.txt "Injury and Death": any other individual stabilizes a Dying one with an
 * action, no roll; a stabilized character does not die at the end of the encounter.
 */
export function stabilize(b: Batch, command: CommandOf<'stabilize'>): void {
  const now = b.now;
  const who = requireTurn(b, command.actor, 'actor');
  const target = getCharacter(now, command.target, 'target');
  const section = rule('core', 'Injury and Death');
  if (target.def.id === who.def.id) throw new RuleError('stabilize-self', 'stabilizing is done by another individual', 'target', section);
  if (target.status === 'dead') throw new RuleError('target-dead', `${target.def.name} is already dead`, 'target', section);
  const tallied = target.status === 'dying' || tallyStatus(now, target.def.id) === 'dying';
  if (!tallied) throw new RuleError('not-dying', `${target.def.name} is not Dying`, 'target', section);
  if (target.stabilized) throw new RuleError('already-stabilized', `${target.def.name} is already stabilized`, 'target', section);
  takeAction(b, who, `stabilizes ${target.def.name}`);
  b.emit({ type: 'stabilized', by: who.def.id, target: target.def.id });
}

function tallyStatus(now: Snapshot, id: string) {
  return talliedStatus(now, now.characters[id]!);
}
