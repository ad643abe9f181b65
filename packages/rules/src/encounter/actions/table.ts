import { OptionError, tableOptions } from '../../options';
import { getCharacter, type Batch } from '../batch';
import { endEncounter } from '../clockwork';
import type { CommandOf } from '../commands';
import { obstaclePool, type Combatant } from '../combatant';
import { RuleError, rule } from '../errors';
import { applyStatusNow, statusesAtOnce } from '../health';

/** The GM's commands that set up the table and say who is at it, and the end of a session. */

/** An obstacle needs a pool to roll (personae-core-2011.txt "Obstacles"). */
function checkObstacle(c: Combatant, field: string): void {
  if (c.obstacle && !obstaclePool(c)) {
    throw new RuleError('obstacle-without-pool', `${c.name} is ${c.obstacle.kind === 'hazard' ? 'a hazard' : 'an obstacle'}: give it a pool as its first skill (dice and attribute)`, `${field}.skills`, rule('core', 'Obstacles'));
  }
}

export function setUp(b: Batch, command: CommandOf<'set-up'>): void {
  const options = tableOptions(command.options.preset, command.options.options);
  const ids = new Set<string>();
  for (const [i, c] of command.characters.entries()) {
    checkObstacle(c, `characters[${i}]`);
    if (c.id === 'gm') throw new RuleError('reserved-id', '"gm" is reserved for the GM', `characters[${i}].id`);
    if (ids.has(c.id)) throw new RuleError('duplicate-character', `two characters have the id "${c.id}"`, `characters[${i}].id`);
    ids.add(c.id);
  }
  b.emit({ type: 'set-up', title: command.title, options, characters: command.characters });
}

export function configure(b: Batch, command: CommandOf<'configure'>): void {
  let options;
  try {
    options = tableOptions(command.options.preset, command.options.options);
  } catch (e) {
    if (e instanceof OptionError) throw new RuleError('invalid-option', e.message, `options.options.${e.option}`);
    throw e;
  }
  b.emit({ type: 'options-changed', options });
}

export function updateCharacter(b: Batch, command: CommandOf<'update-character'>): void {
  const c = getCharacter(b.now, command.character.id, 'character.id');
  checkObstacle(command.character, 'character');
  b.emit({ type: 'character-updated', character: command.character });
  if (statusesAtOnce(b.now) && c.status !== 'dead') applyStatusNow(b, c.def.id, 'the character changed');
}

export function join(b: Batch, command: CommandOf<'join'>): void {
  const now = b.now;
  if (now.characters[command.character.id]?.present) throw new RuleError('already-present', `${command.character.id} is already at the table`, 'character.id');
  checkObstacle(command.character, 'character');
  b.emit({ type: 'character-joined', character: command.character });
  if (now.combat && !command.character.obstacle) b.emit({ type: 'order-changed', order: [...now.combat.order, command.character.id], reason: `${command.character.name} joins at the end of the order` });
}

export function leave(b: Batch, command: CommandOf<'leave'>): void {
  getCharacter(b.now, command.id, 'id');
  b.emit({ type: 'character-left', id: command.id });
}

export function endSession(b: Batch): void {
  const now = b.now;
  if (now.betweenSessions) throw new RuleError('between-sessions', `session ${now.clock.session} has already ended`, 'type');
  if (now.clock.stage !== 'scene') endEncounter(b);
  b.emit({ type: 'session-ended', session: now.clock.session });
}
