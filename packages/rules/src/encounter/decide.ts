import { DiceInputError, type DiceSource } from '@personae/dice';
import { ChallengeError, RerollError } from '../challenge';
import { OptionError, tableOptions } from '../options';
import { escalationOrder, STAGE_LABEL, type Stage } from '../time';
import { attack, power, interact, inquire, recover } from './actions';
import { Batch, cannotAct, getCharacter, withEntered } from './batch';
import { controllerOf, findPower, findSkill, findWeapon } from './combatant';
import { GM_COMMANDS, type CommandOf, type EncounterCommand } from './commands';
import { DomainError, rule } from './errors';
import type { EncounterEvent } from './events';
import { find } from './evolve';
import { giveCriticals, spendCriticals } from './criticals';
import { beginDay, beginScene, beginSession, endEncounter } from './clockwork';
import { actionOrder } from './order';
import { beginRound, endTurn, requireTurn, takeAction } from './turns';
import { applyStatusNow, statusesAtOnce, talliedStatus } from './health';
import type { EncounterState, Place, Snapshot } from './state';

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
 * decide(state, command, dice) -> events. Pure: dice come from the source handed in (after any dice
 * entered with the command), and the only output is the events. An action the rules forbid throws a
 * DomainError and produces no event, so the state is left as it was.
 */
export function decide(state: EncounterState, command: EncounterCommand, dice: DiceSource): EncounterEvent[] {
  try {
    return decideUnchecked(state, command, dice);
  } catch (e) {
    if (e instanceof DomainError) throw e;
    if (e instanceof ChallengeError) throw new DomainError('challenge', e.message, e.field);
    if (e instanceof DiceInputError || e instanceof RerollError) throw new DomainError('dice', e.message, 'dice');
    throw e;
  }
}

function decideUnchecked(state: EncounterState, command: EncounterCommand, dice: DiceSource): EncounterEvent[] {
  if (GM_COMMANDS.includes(command.type) && command.actor !== 'gm') {
    throw new DomainError('gm-only', `only the GM may ${command.type.replace(/-/g, ' ')}`, 'actor');
  }
  if (command.type === 'undo') return undo(state, command);
  if (command.type === 'redo') return redo(state);
  const b = new Batch(state.now, state.sequence);
  if (command.type === 'set-up') {
    if (state.now) throw new DomainError('already-set-up', 'the table is already set up', 'type');
    setUp(b, command);
    return b.events;
  }
  const now = b.now;
  if (command.actor !== 'gm') {
    const who = getCharacter(now, command.actor, 'actor');
    if (!who.present) throw new DomainError('not-present', `${who.def.name} is not in this scene`, 'actor');
  }
  const source = withEntered('dice' in command ? command.dice?.extra : undefined, dice);
  (HANDLERS[command.type] as Handler<ActionType>)(b, command, source);
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

function configure(b: Batch, command: CommandOf<'configure'>): void {
  let options;
  try {
    options = tableOptions(command.options.preset, command.options.options);
  } catch (e) {
    if (e instanceof OptionError) throw new DomainError('invalid-option', e.message, `options.options.${e.option}`);
    throw e;
  }
  b.emit({ type: 'options-changed', options });
}

function updateCharacter(b: Batch, command: CommandOf<'update-character'>): void {
  const c = getCharacter(b.now, command.character.id, 'character.id');
  b.emit({ type: 'character-updated', character: command.character });
  if (statusesAtOnce(b.now) && c.status !== 'dead') applyStatusNow(b, c.def.id, 'the character changed');
}

function join(b: Batch, command: CommandOf<'join'>): void {
  const now = b.now;
  if (now.characters[command.character.id]?.present) throw new DomainError('already-present', `${command.character.id} is already at the table`, 'character.id');
  b.emit({ type: 'character-joined', character: command.character });
  if (now.combat) b.emit({ type: 'order-changed', order: [...now.combat.order, command.character.id], reason: `${command.character.name} joins at the end of the order` });
}

function leave(b: Batch, command: CommandOf<'leave'>): void {
  getCharacter(b.now, command.id, 'id');
  b.emit({ type: 'character-left', id: command.id });
}

function endSession(b: Batch): void {
  const now = b.now;
  if (now.betweenSessions) throw new DomainError('between-sessions', `session ${now.clock.session} has already ended`, 'type');
  if (now.clock.stage !== 'scene') endEncounter(b);
  b.emit({ type: 'session-ended', session: now.clock.session });
}

function finishEncounter(b: Batch): void {
  if (b.now.clock.stage === 'scene') throw new DomainError('no-encounter', 'there is no encounter to end', 'type');
  endEncounter(b);
}

function setUp(b: Batch, command: CommandOf<'set-up'>): void {
  const options = tableOptions(command.options.preset, command.options.options);
  const ids = new Set<string>();
  for (const [i, c] of command.characters.entries()) {
    if (c.id === 'gm') throw new DomainError('reserved-id', '"gm" is reserved for the GM', `characters[${i}].id`);
    if (ids.has(c.id)) throw new DomainError('duplicate-character', `two characters have the id "${c.id}"`, `characters[${i}].id`);
    ids.add(c.id);
  }
  b.emit({ type: 'set-up', title: command.title, options, characters: command.characters });
}

// ---------------------------------------------------------------------------------------------
// Undo and redo: events that return the state to an earlier event's, so the log stays append-only.

function undo(state: EncounterState, command: CommandOf<'undo'>): EncounterEvent[] {
  if (!state.now) throw new DomainError('nothing-to-undo', 'nothing has happened yet');
  const target = command.toSequence ?? state.undoTo;
  if (target === null || target === undefined || target < 1) {
    throw new DomainError('nothing-to-undo', target === 0 ? 'the set-up itself cannot be undone' : 'there is no earlier action to return to', 'toSequence');
  }
  if (target >= state.sequence) throw new DomainError('undo-target', `event #${target} is not before the latest event (#${state.sequence})`, 'toSequence');
  const next = find(state.past, target + 1);
  if (!find(state.past, target) || !next) throw new DomainError('undo-target', `there is no event #${target}`, 'toSequence');
  if (next.action !== target + 1) {
    throw new DomainError('undo-target', `event #${target} is in the middle of an action: return to the end of an action (event #${next.action - 1} or later)`, 'toSequence');
  }
  const seq = state.sequence + 1;
  return [{ type: 'undone', toSequence: target, seq, action: seq }];
}

function redo(state: EncounterState): EncounterEvent[] {
  const target = state.redo[state.redo.length - 1];
  if (target === undefined) throw new DomainError('nothing-to-redo', 'there is no undone action to redo');
  const seq = state.sequence + 1;
  return [{ type: 'redone', toSequence: target, seq, action: seq }];
}

// ---------------------------------------------------------------------------------------------
// Escalation (personae-core-2011.txt "Escalation"; personae-v4-srd-playing.txt "The Challenge").

function escalate(b: Batch, command: CommandOf<'escalate'>, dice: DiceSource): void {
  const now = b.now;
  const steps = escalationOrder(now.options);
  const from = now.clock.stage;
  const i = steps.indexOf(from);
  const j = steps.indexOf(command.to);
  const source = now.options.escalation === 'srd-v4' ? rule('v4', 'The Challenge') : rule('core', 'Escalation');
  if (j < 0) throw new DomainError('unknown-stage', `a ${STAGE_LABEL[command.to]} is not a step of escalation ${now.options.escalation}`, 'to', source);
  if (j <= i) throw new DomainError('not-an-escalation', `the ${STAGE_LABEL[from]} is already at or past a ${STAGE_LABEL[command.to]}`, 'to', source);
  if (j > i + 1 && !now.options.escalationMaySkip) {
    throw new DomainError(
      'escalation-order',
      `a ${STAGE_LABEL[from]} escalates to a ${STAGE_LABEL[steps[i + 1]!]} first (${steps.join(' -> ')}; option escalationMaySkip)`,
      'to',
      source,
    );
  }
  if (command.actor !== 'gm') {
    const who = getCharacter(now, command.actor, 'actor');
    const why = cannotAct(now, who);
    if (why) throw new DomainError(why.code, why.message, 'actor', why.rule);
  }
  const encounter = from === 'scene' ? now.clock.encounter + 1 : now.clock.encounter;
  b.emit({ type: 'escalated', by: command.actor, from, to: command.to, encounter });
  if (command.to === 'violent') {
    const escalator = command.actor === 'gm' ? null : command.actor;
    const order = actionOrder(b.now, escalator, command.orderDice ?? {}, command.orderSkills ?? {}, dice);
    b.emit({ type: 'order-set', method: b.now.options.actionOrder, order: order.order, rolls: order.rolls, explanation: order.explanation });
    beginRound(b, 1);
  }
}

/** srd-v4 "The Challenge": encounters can be de-escalated as it makes sense in the fiction. */
function deescalate(b: Batch, command: CommandOf<'de-escalate'>): void {
  const now = b.now;
  if (now.options.escalation !== 'srd-v4') {
    throw new DomainError('de-escalation', 'only escalation srd-v4 de-escalates an encounter; end the encounter instead', 'type', rule('v4', 'The Challenge'));
  }
  const steps = escalationOrder(now.options);
  const from = now.clock.stage;
  if (steps.indexOf(command.to) >= steps.indexOf(from)) {
    throw new DomainError('not-a-de-escalation', `a ${STAGE_LABEL[from]} cannot de-escalate to a ${STAGE_LABEL[command.to]}`, 'to');
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

function setOrder(b: Batch, command: CommandOf<'set-order'>): void {
  const now = b.now;
  if (!now.combat) throw new DomainError('not-violent', 'the action order is set in a violent encounter', 'type', rule('core', 'The Action Order, and Actions'));
  const seen = new Set<string>();
  for (const [i, id] of command.order.entries()) {
    getCharacter(now, id, `order[${i}]`);
    if (seen.has(id)) throw new DomainError('duplicate-character', `${id} appears twice in the order`, `order[${i}]`);
    seen.add(id);
  }
  const missing = now.combat.order.filter((id) => !seen.has(id) && now.characters[id]?.present);
  if (missing.length) throw new DomainError('order-incomplete', `the order leaves out ${missing.join(', ')}`, 'order');
  b.emit({ type: 'order-changed', order: command.order, reason: 'set by the GM' });
}

// ---------------------------------------------------------------------------------------------
// Moves and the smaller actions.

/**
 * personae-core-2011.txt "Distance and Location": the group tracks space on a grid or in relative
 * terms ("close", "adjacent", "very near", "pretty far"); option distance says which, and a
 * destination of the other form is refused.
 */
function destination(now: Snapshot, to: CommandOf<'move'>['to']): { to?: Place } {
  if (to === undefined) return {};
  const section = rule('core', 'Distance and Location');
  if (now.options.distance === 'grid' && typeof to === 'string') {
    throw new DomainError('distance-form', `this table tracks distance on a grid (option distance = grid): give the destination as coordinates { x, y }, not "${to}"`, 'to', section);
  }
  if (now.options.distance === 'relative' && typeof to !== 'string') {
    throw new DomainError(
      'distance-form',
      `this table tracks distance in relative terms (option distance = relative): give the destination as a word such as "close", "adjacent", "very near" or "pretty far", not coordinates`,
      'to',
      section,
    );
  }
  return { to };
}

function move(b: Batch, command: CommandOf<'move'>): void {
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
    throw new DomainError('no-moves-left', `${who.def.name} has moved and used the turn's action`, 'type', rule('core', 'The Action Order, and Actions'));
  }
  b.emit({ type: 'moved', actor: who.def.id, usesAction: turn.moves >= 1, ...(command.description ? { description: command.description } : {}), ...where });
}

/** personae-core-2011.txt "Passive vs. Active Defense": an active defense is declared with an action. */
function defend(b: Batch, command: CommandOf<'defend'>): void {
  const who = requireTurn(b, command.actor, 'actor');
  const c = who.def;
  const section = rule('core', 'Passive vs. Active Defense');
  if (command.kind === 'power') {
    const p = command.power ? findPower(c, command.power) : c.powers.find((x) => x.activeDefense);
    if (!p) throw new DomainError('unknown-power', `${c.name} has no power${command.power ? ` "${command.power}"` : ''} to defend with`, 'power');
    if (!p.activeDefense) throw new DomainError('not-a-defense', `${p.name} is not a power that resists or deflects`, 'power', section);
    takeAction(b, who, `declares an active defense with ${p.name}`);
    b.emit({ type: 'defense-declared', actor: c.id, defense: { kind: 'power', skill: p.skill, power: p.name, round: b.now.combat?.round ?? 0 } });
    return;
  }
  const wanted = command.kind === 'parry' ? 'weapon' : 'shield';
  const skill = command.skill ? findSkill(c, command.skill) : c.skills.find((s) => (wanted === 'weapon' ? s.weapon && findWeapon(c, s.weapon)?.range === 'melee' : s.shield));
  if (!skill) throw new DomainError('unknown-skill', `${c.name} has no ${wanted} skill${command.skill ? ` "${command.skill}"` : ''} to ${command.kind} with`, 'skill', section);
  if (command.kind === 'parry' && !skill.weapon) throw new DomainError('parry-needs-weapon', `${skill.name} is not a weapon skill: parrying takes a weapon`, 'skill', section);
  if (command.kind === 'block' && !skill.shield) {
    throw new DomainError('block-needs-shield', `${skill.name} is not a shield skill: blocking actively takes a separate shield skill`, 'skill', section);
  }
  takeAction(b, who, `declares an active defense: ${command.kind} with ${skill.name}`);
  b.emit({ type: 'defense-declared', actor: c.id, defense: { kind: command.kind, skill: skill.name, round: b.now.combat?.round ?? 0 } });
}

/** personae-core-2011.txt "Assisting in a Challenge": in a violent encounter assistants declare it on their turns. */
function assist(b: Batch, command: CommandOf<'assist'>): void {
  const now = b.now;
  if (!now.combat) throw new DomainError('not-violent', 'assistance is declared ahead only in a violent encounter; name assistants on the challenge instead', 'type');
  const who = requireTurn(b, command.actor, 'actor');
  const primary = getCharacter(now, command.primary, 'primary');
  if (primary.def.id === who.def.id) throw new DomainError('assist-self', 'a character cannot assist itself', 'primary');
  // srd-v4 "Assisting in a Challenge": the assistance is in addition to the character's actions.
  const usesAction = now.options.assist !== 'srd-v4';
  takeAction(b, who, `declares assistance to ${primary.def.name}`, usesAction);
  b.emit({ type: 'assist-declared', actor: who.def.id, primary: primary.def.id });
}

/**
 * personae-core-2011.txt "Injury and Death": any other individual stabilizes a Dying one with an
 * action, no roll; a stabilized character does not die at the end of the encounter.
 */
function stabilize(b: Batch, command: CommandOf<'stabilize'>): void {
  const now = b.now;
  const who = requireTurn(b, command.actor, 'actor');
  const target = getCharacter(now, command.target, 'target');
  const section = rule('core', 'Injury and Death');
  if (target.def.id === who.def.id) throw new DomainError('stabilize-self', 'stabilizing is done by another individual', 'target', section);
  if (target.status === 'dead') throw new DomainError('target-dead', `${target.def.name} is already dead`, 'target', section);
  const tallied = target.status === 'dying' || tallyStatus(now, target.def.id) === 'dying';
  if (!tallied) throw new DomainError('not-dying', `${target.def.name} is not Dying`, 'target', section);
  if (target.stabilized) throw new DomainError('already-stabilized', `${target.def.name} is already stabilized`, 'target', section);
  takeAction(b, who, `stabilizes ${target.def.name}`);
  b.emit({ type: 'stabilized', by: who.def.id, target: target.def.id });
}

function tallyStatus(now: Snapshot, id: string) {
  return talliedStatus(now, now.characters[id]!);
}

/** personae-core-2011.txt "Duration / Duration Identifiers": a Maintain power costs an action each round. */
function maintain(b: Batch, command: CommandOf<'maintain'>): void {
  const now = b.now;
  const effect = now.effects.find((e) => e.id === command.effect);
  if (!effect) throw new DomainError('unknown-effect', `there is no power in effect with id ${command.effect}`, 'effect');
  if (effect.owner !== command.actor) throw new DomainError('not-owner', `${effect.power} was started by ${effect.owner}`, 'effect');
  if (effect.duration !== 'maintain') {
    throw new DomainError('not-maintained', `${effect.power} has ${effect.duration} duration and needs no keeping up`, 'effect', rule('core', 'Duration / Duration Identifiers'));
  }
  const who = requireTurn(b, command.actor, 'actor');
  const round = now.combat?.round ?? 0;
  if (effect.maintainedRound === round && now.combat) {
    throw new DomainError('already-maintained', `${effect.power} is already kept up this round`, 'effect', rule('core', 'Duration / Duration Identifiers'));
  }
  takeAction(b, who, `keeps up ${effect.power}`);
  b.emit({ type: 'effect-maintained', id: effect.id, round });
}

function endEffect(b: Batch, command: CommandOf<'end-effect'>): void {
  const effect = b.now.effects.find((e) => e.id === command.effect);
  if (!effect) throw new DomainError('unknown-effect', `there is no power in effect with id ${command.effect}`, 'effect');
  if (command.actor !== 'gm' && effect.owner !== command.actor) throw new DomainError('not-owner', `${effect.power} was started by ${effect.owner}`, 'effect');
  b.emit({ type: 'effect-ended', id: effect.id, reason: command.actor === 'gm' ? 'ended by the GM' : 'ended by its practitioner' });
}

function finishTurn(b: Batch, command: CommandOf<'end-turn'>): void {
  const combat = b.now.combat;
  if (!combat) throw new DomainError('not-violent', 'turns are taken in a violent encounter', 'type', rule('core', 'The Action Order, and Actions'));
  if (command.actor !== 'gm' && command.actor !== combat.turn.actor) {
    const actor = b.now.characters[combat.turn.actor];
    throw new DomainError('out-of-turn', `it is ${actor?.def.name ?? combat.turn.actor}'s turn`, 'actor', rule('core', 'The Action Order, and Actions'));
  }
  endTurn(b);
}
