import { asPoolDice, ownGet, requireCharacterRoom, requireEnteredPools, requireSheetSize, RuleError, type Actor, type DecideContext, type DicePool } from '@personae/core';
import type { LucidityCommand } from './commands';
import type { LucidityTableState } from './state';

/**
 * Who may enter which dice at a Lucidity table. A combatant is controlled by the participant it was
 * added for (`controller`; a player's own sheet is theirs); the GM controls the rest and may enter any
 * dice. A player types in dice only for the rolls of combatants they control, and only when the
 * table takes physical dice (setting physicalDice): the opposition's dice (an opposed roll's
 * defender, another combatant's initiative or end-of-round roll) are the GM's, and so is a GM
 * modifier. Every way dice enter a command is listed here:
 *
 * | where                                         | whose roll                          |
 * |-----------------------------------------------|-------------------------------------|
 * | `attack` `d20`, `buffDice`, `breakDice`, `damageDice` | the attacker's (`actor`)    |
 * | `roll` `d20`, `buffDice`, `breakDice`         | the roller's (`actor`)              |
 * | `roll` `against.d20`                          | the defender's (`against.id`)       |
 * | `lucidity-roll` `d20`, `d20Second`            | the roller's (`actor`)              |
 * | `narrative` `d20`                             | the target's resistance (`target`)  |
 * | `start` `dice[id]`, `end-turn` `dice[id]`     | combatant `id`'s                    |
 * | `rest` `healthDice`                           | the resting combatant's (`id`)      |
 * | the envelope's pool `rolls`                   | every roll the command makes, in turn |
 */
export const ROLLS_POOL = 'rolls';

/**
 * The envelope's pool "rolls": a player may fill it only for a command that rolls for their own
 * combatant alone (an attack, a roll against no one, a Lucidity roll); any other is the GM's.
 */
function rollsPool(state: LucidityTableState, cmd: LucidityCommand, viewer: Actor): DicePool {
  const alone = cmd.type === 'attack' || cmd.type === 'lucidity-roll' || (cmd.type === 'roll' && cmd.against === undefined);
  const c = alone ? ownGet(state.game.combatants, cmd.actor) : undefined;
  const shown = c && (!c.hidden || viewer.role === 'gm' || c.controller === viewer.participantId);
  return {
    name: ROLLS_POOL,
    owners: alone ? [{ kind: 'character', id: cmd.actor, controller: c?.controller ?? null, ...(shown ? { name: c.name } : {}) }] : [{ kind: 'opposition' }],
    sides: 100,
    label: `every roll of the ${cmd.type} in turn`,
  };
}
interface Entry {
  readonly field: string;
  /** The combatant whose roll the dice fill. */
  readonly owner: string;
}

function entries(cmd: LucidityCommand): Entry[] {
  const out: Entry[] = [];
  const own = (actor: string, fields: readonly string[]) => {
    const raw = cmd as unknown as Record<string, unknown>;
    for (const f of fields) if (raw[f] !== undefined && !(Array.isArray(raw[f]) && (raw[f] as unknown[]).length === 0)) out.push({ field: f, owner: actor });
  };
  switch (cmd.type) {
    case 'attack':
      own(cmd.actor, ['d20', 'buffDice', 'breakDice', 'damageDice']);
      break;
    case 'roll':
      own(cmd.actor, ['d20', 'buffDice', 'breakDice']);
      if (cmd.against?.d20 !== undefined) out.push({ field: 'against.d20', owner: cmd.against.id });
      break;
    case 'lucidity-roll':
      own(cmd.actor, ['d20', 'd20Second']);
      break;
    case 'narrative':
      if (cmd.d20 !== undefined) out.push({ field: 'd20', owner: cmd.target });
      break;
    case 'rest':
      own(cmd.id, ['healthDice']);
      break;
    case 'start':
    case 'end-turn':
      for (const id of Object.keys(cmd.dice ?? {})) out.push({ field: `dice.${id}`, owner: id });
      break;
    default:
      break;
  }
  return out;
}

function refuse(code: string, message: string, field: string): never {
  throw new RuleError(`lucidity.${code}`, message, field);
}

function controls(state: LucidityTableState, actor: Actor, id: string): boolean {
  return actor.role === 'gm' || (actor.role === 'player' && ownGet(state.game.combatants, id)?.controller === actor.participantId);
}

/** Refuses dice, modifiers and sheets the sender may not give, before any rule is applied. */
export function requireAuthority(state: LucidityTableState, cmd: LucidityCommand, ctx: DecideContext): void {
  if (cmd.type === 'add') {
    requireSheetSize(cmd.sheet ?? cmd.statBlock ?? null, cmd.sheet !== undefined ? 'sheet' : 'statBlock');
    if (ctx.actor.role === 'gm' && cmd.controller !== null && ctx.participants && !ctx.participants.has(cmd.controller)) {
      refuse('unknown-participant', `controller: there is no participant "${cmd.controller}" at this table`, 'controller');
    }
    requireCharacterRoom(
      Object.values(state.game.combatants).map((c) => c.controller),
      ctx.actor.role === 'player' ? ctx.actor.participantId : cmd.controller,
      ctx.limits,
      true,
      'controller',
    );
  }
  requireEnteredPools(asPoolDice(ctx.dice).entered, [rollsPool(state, cmd, ctx.actor)], ctx, `a ${cmd.type} command`);
  if (ctx.actor.role === 'gm') return;
  if (ctx.actor.role !== 'player') refuse('forbidden', 'observers watch the table; they cannot change it', 'type');
  if (cmd.type === 'lucidity-roll' && cmd.gmModifier !== 0) refuse('forbidden', 'gmModifier: only the GM sets the modifier of a Lucidity roll', 'gmModifier');
  const typed = entries(cmd);
  // A host passes its table's settings; without them (a replayed scenario, a test) the dice were
  // entered by whoever recorded the game, and only whose dice they are is checked.
  if (typed.length > 0 && ctx.settings && !ctx.settings.physicalDice) {
    refuse('physical-dice-off', `${typed[0]!.field}: this table does not take results of physical dice from players (setting physicalDice)`, typed[0]!.field);
  }
  const acting = 'actor' in cmd ? cmd.actor : null;
  for (const { field, owner } of typed) {
    // The acting combatant's own rolls: whether the player commands it at all is the rules' check.
    if (owner === acting) continue;
    if (!controls(state, ctx.actor, owner)) {
      const name = ownGet(state.game.combatants, owner);
      refuse('not-your-dice', `${field}: this is ${name && !name.hidden ? `${name.name}'s` : "the GM's"} roll; a player enters dice only for the combatants they control`, field);
    }
  }
}
