import { ownGet, RuleError, type Actor, type DecideContext } from '@personae/core';
import type { EncounterCommand } from './commands';
import { canOppose, type Fighter } from './fighter';
import { ruleCitation } from './rules';

/**
 * Who plays which character at a d100 table, and what a player may enter. A character is controlled
 * by the participant it was added for (a player's own sheet, or one the GM handed over); the GM
 * controls every other one and may act for any character. The host hands `decide` the participant
 * who sent the command, and these checks run before any rule is applied.
 */

/** What the checks read of an encounter: its fighters, and the participant controlling each (absent or null: the GM). */
export interface Controlled {
  readonly fighters: Readonly<Record<string, Fighter>>;
  readonly controllers?: Readonly<Record<string, string | null>>;
}

/** The participant controlling `id`, or null when the GM does. */
export function controllerOf(state: Controlled, id: string): string | null {
  return ownGet(state.controllers ?? {}, id) ?? null;
}

/** Whether `actor` may act for character `id`: the GM always, a player for the characters they control. */
export function controls(state: Controlled, actor: Actor, id: string): boolean {
  return actor.role === 'gm' || (actor.role === 'player' && controllerOf(state, id) === actor.participantId);
}

function refuse(code: string, message: string, field: string): never {
  throw new RuleError(code, message, field, ruleCitation('structuredTime'));
}

/** The attack settings the GM rules on: a player's attack takes them from the sheets. */
const GM_ATTACK_FIELDS = ['attackTarget', 'evasionTarget', 'damage', 'tier', 'advantages'] as const;

/**
 * Refuses what the sender of `command` may not do beyond the rules themselves: a player declaring
 * what only the GM rules (targets, damage, advantages), and physical dice that would fill another
 * character's roll (the defender's evasion, an ally's part of an All Out Attack, the next turn's
 * Blood Loss test). The GM may enter any dice.
 */
export function requireAuthority(state: Controlled, command: EncounterCommand, ctx: DecideContext): void {
  const actor = ctx.actor;
  if (actor.role === 'gm') return;
  if (actor.role !== 'player') refuse('observer', 'observers watch the table; they cannot change it', 'type');
  const entered = ctx.dice.kind === 'given';
  switch (command.type) {
    case 'attack': {
      const raw = command as Record<string, unknown>;
      for (const field of GM_ATTACK_FIELDS) {
        const value = raw[field];
        if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        refuse('gm-only', `${field}: only the GM sets an attack's ${field} (the sheet gives the player's)`, field);
      }
      const defender = ownGet(state.fighters, command.defender);
      if (entered && defender && canOppose(defender) && !controls(state, actor, command.defender)) {
        refuse('not-your-dice', `dice: the attack rolls ${defender.name}'s evasion too, which is the GM's roll; a player enters dice only for their own characters`, 'dice');
      }
      return;
    }
    case 'all-out-attack': {
      const other = command.participants.find((p) => !controls(state, actor, p.id));
      if (entered && other) refuse('not-your-dice', `dice: the All Out Attack rolls for ${ownGet(state.fighters, other.id)?.name ?? other.id}, whom you do not play`, 'dice');
      return;
    }
    default:
      if (entered) refuse('not-your-dice', `dice: a player enters physical dice only for their own characters' attacks`, 'dice');
  }
}
