import { asPoolDice, mayFillPool, ownersSeenBy, requireCharacterRoom, requireEnteredPools, requireSheetSize, RuleError, withArticle, type DecideContext } from '@personae/core';
import type { LucidityCommand } from './commands';
import { dicePools } from './pools';
import type { LucidityTableState } from './state';

/**
 * Who may do what at a Lucidity table. A combatant is controlled by the participant it was added for
 * (`controller`; a player's own sheet is theirs); the GM controls the rest and may fill any pool of
 * dice. A player types in dice only for the pools of combatants they control (./pools.ts), and only
 * when the table takes physical dice (setting physicalDice): the opposition's dice (an opposed roll's
 * defender, another combatant's initiative or end-of-round roll) are the GM's, and so is a GM
 * modifier.
 */
function refuse(code: string, message: string, field: string): never {
  throw new RuleError(`lucidity.${code}`, message, field);
}

/** Refuses dice, modifiers and sheets the sender may not give, before any rule is applied. */
export function requireAuthority(state: LucidityTableState, cmd: LucidityCommand, ctx: DecideContext): void {
  if (cmd.type === 'add') {
    requireSheetSize(cmd.sheet ?? cmd.statBlock ?? null, cmd.sheet !== undefined ? 'sheet' : 'statBlock');
    if (ctx.actor.role === 'gm' && cmd.controller !== null && ctx.participants && !ctx.participants.has(cmd.controller)) {
      refuse('unknown-participant', `controller: there is no participant "${cmd.controller}" at this table`, 'controller');
    }
    requireCharacterRoom(
      ownersSeenBy(ctx.actor, Object.values(state.game.combatants).map((c) => ({ owner: c.controller, hidden: c.hidden }))),
      ctx.actor.role === 'player' ? ctx.actor.participantId : cmd.controller,
      ctx.limits,
      true,
      'controller',
    );
  }
  const entered = asPoolDice(ctx.dice).entered;
  if (Object.keys(entered).length) {
    const declared = dicePools(state, cmd, ctx.actor);
    // A player hears only of the pools they could fill, so a refusal names no other combatant's roll.
    requireEnteredPools(entered, declared, ctx, withArticle(`${cmd.type} command`), declared.filter((p) => mayFillPool(p, ctx.actor)));
  }
  if (ctx.actor.role === 'gm') return;
  if (ctx.actor.role !== 'player') refuse('forbidden', 'observers watch the table; they cannot change it', 'type');
  if (cmd.type === 'lucidity-roll' && cmd.gmModifier !== 0) refuse('forbidden', 'gmModifier: only the GM sets the modifier of a Lucidity roll', 'gmModifier');
}
