import type { Batch } from '../batch';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import type { Place, Snapshot } from '../state';
import { requireTurn } from '../turns';

// Moving (personae-core-2011.txt "Distance and Location", "The Action Order, and Actions").

/**
 * personae-core-2011.txt "Distance and Location": the group tracks space on a grid or in relative
 * terms ("close", "adjacent", "very near", "pretty far"); option distance says which, and a
 * destination of the other form is refused.
 */
function destination(now: Snapshot, to: CommandOf<'move'>['to']): { to?: Place } {
  if (to === undefined) return {};
  const section = rule('core', 'Distance and Location');
  if (now.options.distance === 'grid' && typeof to === 'string') {
    throw new RuleError('distance-form', `this table tracks distance on a grid (option distance = grid): give the destination as coordinates { x, y }, not "${to}"`, 'to', section);
  }
  if (now.options.distance === 'relative' && typeof to !== 'string') {
    throw new RuleError(
      'distance-form',
      `this table tracks distance in relative terms (option distance = relative): give the destination as a word such as "close", "adjacent", "very near" or "pretty far", not coordinates`,
      'to',
      section,
    );
  }
  return { to };
}

export function move(b: Batch, command: CommandOf<'move'>): void {
  const now = b.now;
  const who = requireTurn(b, command.actor, 'actor');
  const where = destination(now, command.to);
  if (!now.combat) {
    b.emit({ type: 'moved', actor: who.def.id, usesAction: false, ...(command.description ? { description: command.description } : {}), ...where });
    return;
  }
  const turn = now.combat.turn;
  // personae-core-2011.txt "The Action Order, and Actions": a move, and an action that may be a second move.
  if (turn.moves >= 1 && turn.actionUsed) {
    throw new RuleError('no-moves-left', `${who.def.name} has moved and used the turn's action`, 'type', rule('core', 'The Action Order, and Actions'));
  }
  b.emit({ type: 'moved', actor: who.def.id, usesAction: turn.moves >= 1, ...(command.description ? { description: command.description } : {}), ...where });
}
