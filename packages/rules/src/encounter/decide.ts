import { isPoolDice } from '@personae/core';
import { DiceInputError, type DiceSource } from '@personae/dice';
import { ChallengeError, RerollError } from '../challenge';
import { setOrder, finishTurn } from './actions/action-order';
import { assist } from './actions/assist';
import { attack } from './actions/attack';
import { giveCriticals, spendCriticals } from './actions/critical-spending';
import { defend } from './actions/defense';
import { deescalate, escalate, finishEncounter } from './actions/escalation';
import { settleFollowUp } from './actions/follow-up';
import { inquire } from './actions/inquiry';
import { interact } from './actions/interaction';
import { endEffect, maintain } from './actions/maintain';
import { move } from './actions/move';
import { power } from './actions/power';
import { recover } from './actions/recovery';
import { stabilize } from './actions/stabilize';
import { configure, endSession, join, leave, setUp, updateCharacter } from './actions/table';
import { redo, undo } from './actions/undo';
import { unopposed } from './actions/unopposed';
import { Batch, getCharacter } from './batch';
import { beginDay, beginScene, beginSession } from './clockwork';
import { controllerOf } from './combatant';
import { GM_COMMANDS, type CommandOf, type EncounterCommand } from './commands';
import { RuleError } from './errors';
import type { EncounterEvent } from './events';
import type { EncounterState } from './state';

/**
 * Who must issue a command: "gm" for the GM's commands, otherwise the controller of the character
 * named as its actor (a player's id, or "gm" for the GM's characters). A server compares it with the
 * identity of the connection before calling `decide`.
 */
export function requiredIssuer(state: EncounterState, command: EncounterCommand): string {
  if (GM_COMMANDS.includes(command.type) || command.actor === 'gm') return 'gm';
  const c = state.now?.characters[command.actor];
  return c ? controllerOf(c.def) : 'gm';
}

/**
 * decide(state, command, dice) -> events. Pure: dice come from the source handed in, by named pool
 * (./pools.ts) when it is a pool source with dice entered at the table, and the only output is the
 * events. An action the rules forbid, or entered dice that do not fit the pools the command rolls,
 * throws a RuleError and produces no event, so the state is left as it was.
 */
export function decide(state: EncounterState, command: EncounterCommand, dice: DiceSource): EncounterEvent[] {
  try {
    const events = decideUnchecked(state, command, dice);
    if (isPoolDice(dice)) dice.finish();
    return events;
  } catch (e) {
    if (e instanceof RuleError) throw e;
    if (e instanceof ChallengeError) throw new RuleError('challenge', e.message, e.field);
    if (e instanceof DiceInputError || e instanceof RerollError) throw new RuleError('dice', e.message, 'dice');
    throw e;
  }
}

function decideUnchecked(state: EncounterState, command: EncounterCommand, dice: DiceSource): EncounterEvent[] {
  if (GM_COMMANDS.includes(command.type) && command.actor !== 'gm') {
    throw new RuleError('gm-only', `only the GM may ${command.type.replace(/-/g, ' ')}`, 'actor');
  }
  if (command.type === 'undo') return undo(state, command);
  if (command.type === 'redo') return redo(state);
  const b = new Batch(state.now, state.sequence);
  if (command.type === 'set-up') {
    if (state.now) throw new RuleError('already-set-up', 'the table is already set up', 'type');
    setUp(b, command);
    return b.events;
  }
  const now = b.now;
  if (command.actor !== 'gm') {
    const who = getCharacter(now, command.actor, 'actor');
    if (!who.present) throw new RuleError('not-present', `${who.def.name} is not in this scene`, 'actor');
  }
  settleFollowUp(b, command);
  (HANDLERS[command.type] as Handler<ActionType>)(b, command, dice);
  return b.events;
}

/** The commands a table handles after its set-up; undo and redo work on the log itself. */
type ActionType = Exclude<EncounterCommand['type'], 'set-up' | 'undo' | 'redo'>;
type Handler<K extends ActionType> = (b: Batch, command: CommandOf<K>, dice: DiceSource) => void;

/** One handler per command, by the rulebook's name for it: the compiler checks none is missing. */
const HANDLERS: { readonly [K in ActionType]: Handler<K> } = {
  configure,
  'update-character': updateCharacter,
  join,
  leave,
  'begin-session': (b) => beginSession(b),
  'end-session': endSession,
  'begin-day': (b) => beginDay(b),
  'begin-scene': (b, command) => beginScene(b, command.title),
  'end-scene': (b) => beginScene(b, undefined),
  escalate,
  'de-escalate': deescalate,
  'end-encounter': finishEncounter,
  'set-order': setOrder,
  move,
  attack,
  power,
  interact,
  inquire,
  unopposed,
  recover,
  defend,
  assist,
  stabilize,
  maintain,
  'end-effect': endEffect,
  'spend-criticals': spendCriticals,
  'give-criticals': giveCriticals,
  'end-turn': finishTurn,
};
