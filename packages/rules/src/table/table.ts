import { z } from 'zod';
import { DiceInputError, type DiceSource } from '@personae/dice';
import { advance, CHARACTER_RULES, checkCreation, describePurchase, effectiveEntries, loadSheet, type CharacterSheet, type HistoryEntry } from '../character';
import { ChallengeError, DifficultyError, freePoolSide, parseDifficulty, RerollError, resolveChallenge, resolveUnopposed, type ChallengeResult, type ChallengeSideSpec } from '../challenge';
import {
  combatantFromSheet,
  decide as decideEncounter,
  describeEvent,
  RuleError,
  EMPTY_STATE,
  evolve as evolveEncounter,
  GM_COMMANDS,
  idFromName,
  type Combatant,
  type EncounterCommand,
  type EncounterEvent,
  type EncounterState,
} from '../encounter';
import { OptionError, presetOptions, tableOptions, type Preset, type TableOptions } from '../options';
import { asPoolDice, newCharacterId, ownersSeenBy, ownGet, ownHas, requireCharacterRoom, requireSeen } from '@personae/core';
import { TableCommandSchema, type FreeSide, type TableCommand } from './commands';
import { requireDiceAuthority } from './dice';
import { boost, purchase, RESOURCES, sceneEnded } from './resources';
import { checkEventApplies } from './validate';
import type { LastAction, LogEntry, TableCharacter, TableEvent, TableSettings, TableState, Viewer } from './state';

type Stamp = Pick<TableEvent, 'by' | 'at'>;
import { appendLog, EMPTY_LOG, emptyKeyed, keyedGet, keyedSet, keyedValues, logEntries, type KeyedLog, type TableLog } from './log';
import { concernedIds, encounterOnlyHidden, hiddenSideShown, publicLines, publicResult, rollerResult, UNSEEN, type HiddenSideShown } from './hidden';
import { tallyChallenge, type DiceTally } from './fairness';
import { commitmentOpening, committedDice, sealResult, type RevealedSecret, type SealedRoll, type SecretReveal } from './secret';

/** The recipient of a whisper to the GM. */
export const TO_GM = 'gm';

/**
 * Who may read a line of table talk: everyone when said aloud; a whisper only its speaker and its one
 * recipient (the table server never sends it to anyone else).
 */
export function canHear(said: { readonly by: string; readonly to: string | null }, viewer: Viewer): boolean {
  if (said.to === null) return true;
  if (viewer.role === 'observer') return false;
  return said.by === viewer.participantId || said.to === viewer.participantId || (said.to === TO_GM && viewer.role === 'gm');
}

/** The table's log entries, oldest first. */
export function tableLog(state: TableState): readonly LogEntry[] {
  return logEntries(state.log);
}

export function initialTableState(preset: Preset = 'core-2011'): TableState {
  return { seq: 0, preset, options: presetOptions(preset), characters: {}, log: EMPTY_LOG, encounter: EMPTY_STATE, secretReveal: 'gm', sealed: emptyKeyed(), diceTallies: {}, lastAction: null };
}

export type ParsedCommand = { ok: true; command: TableCommand } | { ok: false; error: { code: string; message: string; field?: string } };

/**
 * The command types parsed first through zod's compiled fast path (`z.compile`, made on a type's
 * first command): a valid command takes the generated parser, and anything it does not accept goes
 * on to the schema itself, so refusals carry the schema's own issues. `encounter` and `advance` nest
 * unions whose compiling takes 40-200 ms, and keep the regular parser. Where code cannot be generated
 * (a page whose policy forbids `new Function`) `z.compile` hands back the option itself.
 */
const SLOW_TO_COMPILE: ReadonlySet<string> = new Set(['encounter', 'advance']);
const commandOptions = new Map<string, { option: z.ZodType; compiled?: z.ZodType }>(
  TableCommandSchema.options.filter((o) => !SLOW_TO_COMPILE.has(o.shape.type.value)).map((o) => [o.shape.type.value, { option: o }]),
);

function compiledOption(raw: unknown): z.ZodType | undefined {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  const entry = typeof type === 'string' ? commandOptions.get(type) : undefined;
  if (!entry) return undefined;
  return (entry.compiled ??= z.compile(entry.option));
}

export function parseTableCommand(raw: unknown): ParsedCommand {
  const fast = compiledOption(raw)?.safeParse(raw);
  if (fast?.success) return { ok: true, command: fast.data as TableCommand };
  const parsed = TableCommandSchema.safeParse(raw);
  if (parsed.success) return { ok: true, command: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  return { ok: false, error: { code: 'invalid-command', message: `${field || 'command'}: ${issue.message}`, ...(field ? { field } : {}) } };
}

function requireGm(viewer: Viewer, what: string): void {
  if (viewer.role !== 'gm') throw new RuleError('gm-only', `only the GM may ${what}`, 'type');
}

/**
 * Whether a roll or encounter action is secret. Only the GM rolls and acts in secret (docs/table.md,
 * "What each seat may do"): a player's `hidden: true` is refused, never quietly made in the open.
 */
function secretBy(viewer: Viewer, hidden: boolean, what: string): boolean {
  if (hidden && viewer.role !== 'gm') throw new RuleError('gm-only', `hidden: true is refused: only the GM ${what} in secret (leave hidden out, or false)`, 'hidden');
  return hidden;
}

function requireCharacter(state: TableState, id: string, field = 'id'): TableCharacter {
  const c = ownGet(state.characters, id);
  if (!c) throw new RuleError('unknown-character', `there is no character "${id}" at this table`, field);
  return c;
}

/**
 * Whether a character is out of a player's or observer's sight altogether: hidden from them (a hidden
 * table character they do not own, or one that exists only in the encounter and is not an obstacle
 * left in the open) and not in the scene. Commands naming it are refused as naming no one, so a
 * guessed id learns nothing.
 */
function outOfSight(state: TableState, viewer: Viewer, id: string): boolean {
  if (viewer.role === 'gm') return false;
  const play = ownGet(state.encounter.now?.characters ?? {}, id);
  if (play?.present) return false;
  const c = ownGet(state.characters, id);
  if (c) return c.hidden && c.owner !== viewer.participantId;
  return play !== undefined && encounterOnlyHidden(play.def);
}

/** A player acts only for characters they own; the GM for any. */
function requireControl(state: TableState, viewer: Viewer, id: string, field: string): void {
  if (viewer.role === 'gm') return;
  const c = ownGet(state.characters, id);
  if (!c || outOfSight(state, viewer, id)) throw new RuleError('unknown-character', `there is no character "${id}" at this table`, field);
  if (c.owner !== viewer.participantId) throw new RuleError('not-your-character', `${c.sheet.name} is not your character`, field);
}

/** Choices that belong to the reactor's side of a challenge: whoever controls the reactor makes them. */
const REACTOR_CHOICES = ['reactorAbilities', 'reactorExpertise', 'reactorModifiers', 'reactorSkill', 'reactorAttribute', 'defense', 'defenseSkill', 'defensePower'] as const;

/**
 * Every character an encounter command names is one the table has, looked up as an own key: an id
 * such as "constructor" or "__proto__" is an unknown id, refused here before the encounter rules
 * read it. A character out of the sender's sight is unknown to them alike. ("gm" stands for the GM
 * where a command takes an actor or a recipient.)
 */
function requireKnownIds(state: TableState, viewer: Viewer, command: EncounterCommand): void {
  const c = command as Record<string, unknown>;
  const known = (id: string) => (ownHas(state.characters, id) || (state.encounter.now !== null && ownHas(state.encounter.now.characters, id))) && !outOfSight(state, viewer, id);
  const check = (id: unknown, field: string, gm = false) => {
    if (typeof id !== 'string' || (gm && id === 'gm') || known(id)) return;
    throw new RuleError('unknown-character', `there is no character "${id}" at this table`, `command.${field}`);
  };
  check(c.actor, 'actor', true);
  for (const key of ['target', 'primary', 'id']) check(c[key], key);
  if (command.type === 'give-criticals') check(c.to, 'to', true);
  for (const key of ['targets', 'assistants', 'concerted', 'order']) if (Array.isArray(c[key])) (c[key] as unknown[]).forEach((id, i) => check(id, `${key}.${i}`));
  for (const key of ['orderSkills']) {
    const record = c[key];
    if (record && typeof record === 'object') for (const id of Object.keys(record)) check(id, `${key}.${id}`);
  }
}

/**
 * A character the GM brings into the encounter under a new id takes one without the seat mark: ids
 * with it belong to the characters players add (core `newCharacterId`), so none of the GM's, hidden
 * or not, can take one a player's character would get.
 */
function requireOwnSpace(state: TableState, viewer: Viewer, command: EncounterCommand): void {
  const defs = command.type === 'join' ? [{ def: command.character, field: 'command.character.id' }] : command.type === 'set-up' ? command.characters.map((def, i) => ({ def, field: `command.characters.${i}.id` })) : [];
  for (const { def, field } of defs) if (!ownHas(state.encounter.now?.characters ?? {}, def.id)) newCharacterId(viewer, def.id, field);
}

/** Characters an encounter command acts on (its targets). */
function targetsOf(command: EncounterCommand): string[] {
  const c = command as Record<string, unknown>;
  const out: string[] = [];
  if (typeof c.target === 'string') out.push(c.target);
  if (Array.isArray(c.targets)) for (const t of c.targets) if (typeof t === 'string') out.push(t);
  return out;
}

/**
 * A player names the choices of the other side only when every target is their own character
 * (personae-core-2011.txt "Defense": the defender chooses how to answer; the GM answers for the GM's
 * characters).
 */
function requireReactorChoices(state: TableState, viewer: Viewer, command: EncounterCommand): void {
  const c = command as Record<string, unknown>;
  const chosen = REACTOR_CHOICES.find((k) => c[k] !== undefined);
  if (!chosen) return;
  const foreign = targetsOf(command).some((id) => ownGet(state.characters, id)?.owner !== viewer.participantId);
  if (foreign) throw new RuleError('not-your-choice', `${chosen} is the reactor's choice: its player (or the GM, for the GM's characters) makes it`, `command.${chosen}`);
}

/** Names written on a sheet (skills, abilities, powers, talents, gear, weapons) and its concept. */
function sheetWords(sheet: CharacterSheet): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (depth > 0 && (k === 'name' || k === 'weapon' || k === 'shield') && typeof x === 'string' && x.length > 2) out.push(x);
        else walk(x, depth + 1);
      }
    }
  };
  walk(sheet, 0);
  if (sheet.concept) out.push(sheet.concept);
  return out;
}

/**
 * A refusal a player or observer receives never repeats what is written on a sheet hidden from them:
 * a refusal that would is answered with one neutral message, the same for a real and a made-up name.
 */
function refusalFor(state: TableState, viewer: Viewer, error: RuleError): RuleError {
  if (viewer.role === 'gm') return error;
  const text = error.message.toLowerCase();
  for (const c of Object.values(state.characters)) {
    if (!c.hidden || c.owner === viewer.participantId) continue;
    if (sheetWords(c.sheet).some((w) => text.includes(w.toLowerCase()))) {
      const who = state.encounter.now?.characters[c.id]?.present ? c.sheet.name : 'a character';
      return new RuleError('refused', `the table refuses this command: a rule concerning ${who}, whose sheet is hidden from you, forbids it; ask the GM`, 'command');
    }
  }
  return error;
}

/**
 * A participant a command names must be at the table. The server passes who is (`ctx.participants`);
 * without that list (a table run without a server) any id is taken on trust.
 */
function requireParticipant(participants: ReadonlySet<string> | undefined, id: string, field: string): void {
  if (participants && !participants.has(id)) throw new RuleError('unknown-participant', `there is no participant "${id}" at this table`, field);
}

/**
 * A sheet a player adds or writes passes the creation checks the builder applies
 * (personae-core-2011.txt "Creating Personae Characters"), and leaves alone what only play changes:
 * development points change only by the GM's award and the owner's purchases
 * (personae-core-2011.txt "Advancement"), through the advance command, so the history and the banked
 * criticals of a sheet are not the player's to write. The GM's sheets are the GM's call.
 */
function requirePlayerSheet(state: TableState, viewer: Viewer, sheet: CharacterSheet, previous: CharacterSheet | null): void {
  if (viewer.role === 'gm') return;
  const report = checkCreation(sheet, state.options);
  if (!report.valid) {
    const first = report.errors[0]!;
    throw new RuleError(first.rule, first.message, `sheet.${first.path}`, CHARACTER_RULES[first.rule].source);
  }
  const history = JSON.stringify(sheet.history ?? []);
  if (history !== JSON.stringify(previous?.history ?? [])) {
    throw new RuleError(
      'history-protected',
      previous ? "a sheet's history changes only through awards and purchases (command advance), not by editing the sheet" : 'a player adds a character without a history; the GM awards development points at the table',
      'sheet.history',
    );
  }
  if ((sheet.criticals ?? 0) !== (previous?.criticals ?? 0)) {
    throw new RuleError('criticals-protected', 'banked criticals change in play, not by editing the sheet', 'sheet.criticals');
  }
  // personae-core-2011.txt "Resources": boosts and what purchases took from the Cap change through the table's commands.
  if ((sheet.resourceCapLost ?? 0) !== (previous?.resourceCapLost ?? 0)) {
    throw new RuleError('resources-protected', 'what purchases took from the Resource Cap changes through the purchase command, not by editing the sheet', 'sheet.resourceCapLost', RESOURCES);
  }
  if (JSON.stringify(sheet.resourceBoosts ?? []) !== JSON.stringify(previous?.resourceBoosts ?? [])) {
    throw new RuleError('resources-protected', 'temporary Resource Cap boosts are the GM\'s to grant (command resource-boost), not written on the sheet', 'sheet.resourceBoosts', RESOURCES);
  }
}

/**
 * A player takes back only their own purchases: an award of development points is the GM's to take
 * back (personae-core-2011.txt "Advancement").
 */
function requireOwnEntry(sheet: CharacterSheet, entry: number | undefined): void {
  const live = effectiveEntries(sheet.history ?? []);
  const target = entry === undefined ? live.at(-1) : live.find((e) => e.id === entry);
  if (target?.type === 'award') throw new RuleError('gm-only', `entry ${target.id} is the GM's award of development points: only the GM takes it back`, 'command.entry');
}

/** The largest sheet a table takes, as JSON, and the longest character name. */
export const SHEET_MAX_BYTES = 64 * 1024;
export const NAME_MAX_LENGTH = 100;

function readSheet(raw: Record<string, unknown>): CharacterSheet {
  const size = new TextEncoder().encode(JSON.stringify(raw)).length;
  if (size > SHEET_MAX_BYTES) throw new RuleError('sheet-too-large', `the sheet is ${size} bytes as JSON; a table takes sheets of at most ${SHEET_MAX_BYTES} bytes`, 'sheet');
  if (typeof raw.name === 'string' && raw.name.length > NAME_MAX_LENGTH) {
    throw new RuleError('name-too-long', `the name has ${raw.name.length} characters; at most ${NAME_MAX_LENGTH}`, 'sheet.name');
  }
  const loaded = loadSheet(JSON.stringify(raw), 'sheet.json');
  if (!loaded.ok) {
    const first = loaded.error.issues[0];
    throw new RuleError('invalid-sheet', loaded.error.message, first?.path ? `sheet.${first.path}` : 'sheet');
  }
  return loaded.sheet as CharacterSheet;
}

const ID_FROM_NAME_MAX = 40;

/**
 * A new character's id, made from its name. A player's lives in their seat's space (core
 * `newCharacterId`): only characters added from that seat hold ids there, and a character the
 * encounter has seen keeps its id after it leaves, so the number added to a taken id counts only
 * the player's own earlier characters of that name, never one hidden from them. ("gm" stands for
 * the GM in commands, so no character gets it.)
 */
function newId(state: TableState, viewer: Viewer, name: string): string {
  // Cut short, so the id, its seat and a number fit the commands' ids and the dice pools' names.
  const base = newCharacterId(viewer, idFromName(name).slice(0, ID_FROM_NAME_MAX).replace(/-+$/, ''));
  const taken = (id: string) => id === 'gm' || ownHas(state.characters, id) || ownHas(state.encounter.now?.characters ?? {}, id);
  let candidate = base;
  for (let n = 2; taken(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/** Runs an encounter command and wraps its events. */
/**
 * A table character entering the scene: it joins the encounter (the first one sets the encounter up),
 * its encounter events as hidden as the character.
 */
function intoScene(state: TableState, c: Pick<TableCharacter, 'id' | 'owner' | 'hidden' | 'sheet'>, dice: DiceSource, stamp: Stamp): TableEvent[] {
  const character = combatantFromSheet(c.sheet, state.options, { id: c.id, controller: c.owner ?? 'gm' });
  const join: EncounterCommand = state.encounter.now
    ? { type: 'join', actor: 'gm', character }
    : { type: 'set-up', actor: 'gm', title: 'Table', options: { preset: state.preset, options: overridesOf(state) }, characters: [character] };
  return encounterEvents(state, join, dice, stamp, c.hidden);
}

function encounterEvents(state: TableState, command: EncounterCommand, dice: DiceSource, stamp: Stamp, hidden: boolean): TableEvent[] {
  return decideEncounter(state.encounter, command, dice).map((event) => ({ type: 'encounter', event, hidden, ...stamp }));
}

/**
 * A challenge a character issued from the roller goes into its development tally, as one issued in an
 * encounter does (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering"). It is
 * an encounter event of its own, so the encounter's undo takes it back.
 */
function rollTallied(state: TableState, viewer: Viewer, id: string, result: ChallengeResult, purpose: string | undefined, stamp: Stamp, hidden: boolean): TableEvent {
  requireControl(state, viewer, id, 'character');
  const now = state.encounter.now;
  if (!now?.characters[id]?.present) throw new RuleError('not-present', `${requireCharacter(state, id).sheet.name} is not in play: its challenges cannot be tallied`, 'character');
  const seq = state.encounter.sequence + 1;
  const event: EncounterEvent = { type: 'roll-tallied', actor: id, outcome: result.outcome, grade: result.grade, ...(purpose ? { purpose } : {}), seq, action: seq };
  return { type: 'encounter', event, hidden, ...stamp };
}

function freeSide(side: FreeSide, field: string, options: TableOptions): ChallengeSideSpec {
  if (side.dice < options.minimumPool) {
    throw new RuleError('pool-too-small', `${side.name} rolls ${side.dice} dice, but the table's minimum pool is ${options.minimumPool} (option minimumPool)`, `${field}.dice`);
  }
  return freePoolSide(side);
}

const REVEAL_POLICY: Record<SecretReveal, string> = {
  gm: 'From now on the GM reveals each secret roll when they choose.',
  scene: "From now on the table reveals the GM's secret rolls at the end of each scene.",
  session: "From now on the table reveals the GM's secret rolls at the end of each session.",
};

function revealEvent(sealed: SealedRoll, when: 'gm' | 'scene' | 'session', stamp: Stamp): TableEvent {
  const { hash, salt, dice, result, purpose, committedAt } = sealed;
  return { type: 'revealed', hash, salt, dice, result, ...(purpose !== undefined ? { purpose } : {}), committedAt, when, ...stamp };
}

function revealAll(state: TableState, when: 'gm' | 'scene' | 'session', stamp: Stamp): TableEvent[] {
  return keyedValues(state.sealed)
    .sort((a, b) => a.committedAt - b.committedAt)
    .map((s) => revealEvent(s, when, stamp));
}

/** Temporary Resource Cap boosts count down once for each scene the encounter events end. */
function boostsCountDown(state: TableState, events: readonly TableEvent[], stamp: Stamp): TableEvent[] {
  const scenes = events.filter((e) => e.type === 'encounter' && e.event.type === 'scene-ended').length;
  const out: TableEvent[] = [];
  for (const c of Object.values(state.characters)) {
    let sheet = c.sheet;
    for (let i = 0; i < scenes; i++) {
      const change = sceneEnded(sheet);
      if (!change) break;
      sheet = change.sheet;
      out.push({ type: 'sheet-updated', id: c.id, sheet, reason: change.reason, ...stamp });
    }
  }
  return out;
}

/** The table's secret rolls revealed when a scene or session ends, if the table says so (secretReveal). */
function revealsAtEnd(state: TableState, events: readonly TableEvent[], stamp: Stamp): TableEvent[] {
  if (state.secretReveal === 'gm') return [];
  const ends = (type: string) => events.some((e) => e.type === 'encounter' && e.event.type === type);
  const sessionEnded = ends('session-ended');
  if (state.secretReveal === 'session' ? !sessionEnded : !(sessionEnded || ends('scene-ended'))) return [];
  return revealAll(state, state.secretReveal, stamp);
}

/**
 * decide(state, command, ctx) -> events. Pure: dice come from `ctx.dice`, the time from `ctx.now`.
 * An illegal command throws a RuleError naming the field and rule, and leaves the state as it was.
 */
/** What the table server tells `decide` besides the command. */
export interface TableContext {
  readonly actor: Viewer;
  readonly dice: DiceSource;
  readonly now: string;
  readonly settings?: TableSettings;
  /** Ids of the participants at the table now (commands naming another are refused). */
  readonly participants?: ReadonlySet<string>;
  /** The salt of a secret roll's commitment; by default fresh from the platform's cryptographic generator. */
  readonly salt?: () => string;
  /** How many characters the host lets one table, and one player at it, hold. */
  readonly limits?: { readonly maxCharacters?: number; readonly maxCharactersPerPlayer?: number };
}

const characterOwners = (state: TableState, viewer: Viewer) => ownersSeenBy(viewer, Object.values(state.characters));

export function decideTable(state: TableState, command: TableCommand, ctx: TableContext): TableEvent[] {
  const events = decideCommand(state, command, ctx);
  // An entered pool the command rolled a different number of dice in is refused, the state unchanged.
  asPoolDice(ctx.dice).finish();
  return events;
}

function decideCommand(state: TableState, command: TableCommand, ctx: TableContext): TableEvent[] {
  const viewer = ctx.actor;
  const stamp: Stamp = { by: viewer.participantId, at: ctx.now };
  if (viewer.role === 'observer') throw new RuleError('observer', 'observers watch the table; they cannot change it', 'type');
  requireDiceAuthority(state, viewer, command, ctx.dice, ctx.settings);
  try {
    switch (command.type) {
      case 'configure': {
        requireGm(viewer, 'change the table options');
        let options: TableOptions;
        try {
          options = tableOptions(command.preset, command.options);
        } catch (e) {
          if (e instanceof OptionError) throw new RuleError('invalid-option', e.message, `options.${e.option}`);
          throw e;
        }
        const events: TableEvent[] = [{ type: 'configured', preset: command.preset, options, ...stamp }];
        if (state.encounter.now) {
          events.push(...encounterEvents(state, { type: 'configure', actor: 'gm', options: { preset: command.preset, options: command.options } }, ctx.dice, stamp, false));
        }
        return events;
      }
      case 'add-character': {
        const sheet = readSheet(command.sheet);
        const owner = viewer.role === 'gm' ? (command.owner ?? null) : viewer.participantId;
        if (viewer.role === 'player' && command.owner && command.owner !== viewer.participantId) {
          throw new RuleError('not-your-character', 'a player adds characters for themselves only', 'owner');
        }
        if (owner !== null) requireParticipant(ctx.participants, owner, 'owner');
        requireCharacterRoom(characterOwners(state, viewer), owner, ctx.limits, true);
        requirePlayerSheet(state, viewer, sheet, null);
        if (command.outOfScene) requireGm(viewer, 'add a character out of the scene');
        const hidden = viewer.role === 'gm' ? command.hidden : false;
        const id = newId(state, viewer, sheet.name);
        const events: TableEvent[] = [{ type: 'character-added', id, owner, hidden, sheet, ...stamp }];
        // Out of the scene, it is only a table character until the GM brings it in (enter-scene).
        if (command.outOfScene) return events;
        return [...events, ...intoScene(state, { id, owner, hidden, sheet }, ctx.dice, stamp)];
      }
      case 'enter-scene': {
        requireGm(viewer, 'bring a character into the scene');
        const c = requireCharacter(state, command.id);
        if (state.encounter.now?.characters[c.id]?.present) throw new RuleError('already-present', `${c.sheet.name} is already in the scene`, 'id');
        return intoScene(state, c, ctx.dice, stamp);
      }
      case 'update-sheet': {
        requireControl(state, viewer, command.id, 'id');
        const sheet = readSheet(command.sheet);
        requirePlayerSheet(state, viewer, sheet, requireCharacter(state, command.id).sheet);
        return sheetUpdate(state, command.id, sheet, undefined, ctx.dice, stamp);
      }
      case 'remove-character': {
        requireGm(viewer, 'remove a character');
        const c = requireCharacter(state, command.id);
        const events: TableEvent[] = [{ type: 'character-removed', id: c.id, ...stamp }];
        if (state.encounter.now?.characters[c.id]?.present) events.push(...encounterEvents(state, { type: 'leave', actor: 'gm', id: c.id }, ctx.dice, stamp, c.hidden));
        return events;
      }
      case 'set-visibility':
        requireGm(viewer, 'hide or reveal a character');
        requireCharacter(state, command.id);
        return [{ type: 'visibility-set', id: command.id, hidden: command.hidden, ...stamp }];
      case 'set-owner':
        requireGm(viewer, 'hand a character to a player');
        const handed = requireCharacter(state, command.id);
        if (command.owner !== null) requireParticipant(ctx.participants, command.owner, 'owner');
        if (command.owner !== handed.owner) requireCharacterRoom(characterOwners(state, viewer), command.owner, ctx.limits, false);
        return [{ type: 'owner-set', id: command.id, owner: command.owner, ...stamp }];
      case 'roll': {
        const hidden = secretBy(viewer, command.hidden, 'rolls');
        const actor = freeSide(command.actor, 'actor', state.options);
        const help = {
          ...(command.assistants ? { assistants: command.assistants.map((name) => ({ name })) } : {}),
          ...(command.steer ? { steer: [{ value: command.steer.steps, source: command.steer.source }] } : {}),
        };
        let result: ChallengeResult;
        if (command.difficulty !== undefined) {
          if (command.reactor) throw new RuleError('invalid-command', 'an unopposed challenge has a difficulty, not a reactor', 'reactor');
          result = resolveUnopposed({ player: actor, difficulty: parseDifficulty(command.difficulty), ...help }, ctx.dice, state.options);
        } else {
          if (!command.reactor) throw new RuleError('invalid-command', 'an opposed challenge needs a reactor (or give a difficulty for an unopposed one)', 'reactor');
          result = resolveChallenge({ actor, reactor: freeSide(command.reactor, 'reactor', state.options), ...help }, ctx.dice, state.options);
        }
        const purpose = command.purpose ? { purpose: command.purpose } : {};
        const tallied = command.character !== undefined ? [rollTallied(state, viewer, command.character, result, command.purpose, stamp, hidden)] : [];
        if (!hidden) return [{ type: 'rolled', hidden, result, ...purpose, ...stamp }, ...tallied];
        // A secret roll is sealed: every viewer reads its commitment at once (./secret.ts).
        const seal = sealResult(result, ctx.salt?.());
        return [
          { type: 'rolled', hidden, result, ...purpose, seal, ...stamp },
          { type: 'committed', hash: seal.hash, reveal: state.secretReveal, ...stamp },
          ...tallied,
        ];
      }
      case 'purchase': {
        requireControl(state, viewer, command.id, 'id');
        if (command.lowersCap !== undefined) requireGm(viewer, 'rule that a purchase lowers the Resource Cap');
        const c = requireCharacter(state, command.id);
        const change = purchase(c.sheet, command.item, command.cost, command.lowersCap);
        return [{ type: 'sheet-updated', id: c.id, sheet: change.sheet, reason: change.reason, ...stamp }];
      }
      case 'resource-boost': {
        requireGm(viewer, "raise a character's Resource Cap");
        const c = requireCharacter(state, command.id);
        const change = boost(c.sheet, command.amount, command.scenes, command.reason);
        return [{ type: 'sheet-updated', id: c.id, sheet: change.sheet, reason: change.reason, ...stamp }];
      }
      case 'reveal': {
        requireGm(viewer, 'reveal a secret roll');
        if (command.hash === undefined) {
          const all = revealAll(state, 'gm', stamp);
          if (all.length === 0) throw new RuleError('nothing-sealed', 'there is no secret roll left to reveal', 'hash');
          return all;
        }
        const sealed = keyedGet(state.sealed, command.hash.toLowerCase());
        if (!sealed) throw new RuleError('unknown-commitment', `there is no unrevealed secret roll with commitment ${command.hash}`, 'hash');
        return [revealEvent(sealed, 'gm', stamp)];
      }
      case 'secret-reveal': {
        requireGm(viewer, 'choose when secret rolls are revealed');
        return [{ type: 'secret-reveal-set', reveal: command.reveal, ...stamp }];
      }
      case 'encounter': {
        const inner = command.command;
        const hidden = secretBy(viewer, command.hidden, 'acts');
        if (viewer.role !== 'gm') {
          if (inner.type === 'undo' || inner.type === 'redo') {
            // Who may take back what is the table's rule, not the encounter engine's (see undoRefusal).
            const why = undoRefusal(state, viewer, inner.type, inner.type === 'undo' ? inner.toSequence : undefined);
            if (why !== null) throw new RuleError('not-your-action', why, inner.type === 'undo' && inner.toSequence !== undefined ? 'command.toSequence' : 'command.type');
          } else if (GM_COMMANDS.includes(inner.type)) throw new RuleError('gm-only', `only the GM may ${inner.type.replace(/-/g, ' ')}`, 'command.type');
          if (inner.actor === 'gm') throw new RuleError('gm-only', 'only the GM acts as "gm"', 'command.actor');
          requireControl(state, viewer, inner.actor, 'command.actor');
          requireReactorChoices(state, viewer, inner);
        }
        requireKnownIds(state, viewer, inner);
        requireOwnSpace(state, viewer, inner);
        if (inner.type === 'undo' || inner.type === 'redo') requireSeen(state.seq, command.seen, inner.type);
        // A player's undo or redo was allowed above; the encounter engine takes it as the GM's.
        const issued: EncounterCommand = viewer.role !== 'gm' && (inner.type === 'undo' || inner.type === 'redo') ? { ...inner, actor: 'gm' } : inner;
        try {
          const events = encounterEvents(state, issued, ctx.dice, stamp, hidden);
          return [...events, ...boostsCountDown(state, events, stamp), ...revealsAtEnd(state, events, stamp)];
        } catch (e) {
          throw e instanceof RuleError ? refusalFor(state, viewer, e) : e;
        }
      }
      case 'say': {
        const to = command.to ?? null;
        // Whispers run between the GM and one player: a player whispers to the GM only.
        if (viewer.role === 'player' && to !== null && to !== TO_GM) throw new RuleError('whisper-to-gm', 'a player whispers to the GM only (to: "gm")', 'to');
        if (viewer.role === 'gm' && (to === TO_GM || to === viewer.participantId)) throw new RuleError('whisper-to-self', 'the GM whispers to a player, not to the GM', 'to');
        return [{ type: 'said', text: command.text, to, ...stamp }];
      }
      case 'advance': {
        // personae-core-2011.txt "Advancement": the GM awards development points; the player spends them.
        if (command.command.type === 'award') requireGm(viewer, 'award development points');
        requireControl(state, viewer, command.id, 'id');
        const c = requireCharacter(state, command.id);
        if (command.command.type === 'undo' && viewer.role !== 'gm') requireOwnEntry(c.sheet, command.command.entry);
        if (command.command.type === 'spend' && command.command.purchase.kind === 'unspent-slot') requireSlotTime(state);
        const out = advance(c.sheet, command.command, state.options);
        if (!out.ok) throw new RuleError(out.error.rule, out.error.message, `command.${out.error.path}`, CHARACTER_RULES[out.error.rule].source);
        return sheetUpdate(state, c.id, out.sheet, out.entry, ctx.dice, stamp);
      }
    }
  } catch (e) {
    if (e instanceof ChallengeError) throw new RuleError('challenge', e.message, e.field);
    if (e instanceof DiceInputError || e instanceof DifficultyError || e instanceof RerollError) throw new RuleError('invalid-command', e.message, 'dice');
    throw e;
  }
}

/**
 * personae-core-2011.txt "Step 4: Determine Maximum Number of Traits": the group decides whether
 * traits left unspent at creation may be defined during a session or only between sessions (option
 * unspentTraits). The encounter clock knows whether a session is in progress: from the set-up until
 * the GM ends it, and again from the next begin-session.
 */
function requireSlotTime(state: TableState): void {
  const now = state.encounter.now;
  if (state.options.unspentTraits !== 'between-sessions' || !now || now.betweenSessions) return;
  throw new RuleError(
    'unspent-traits-between-sessions',
    `session ${now.clock.session} is in progress: this table defines traits in unspent creation slots only between sessions (option unspentTraits = between-sessions); the GM ends the session first`,
    'command.purchase',
  );
}

function overridesOf(state: TableState): Partial<TableOptions> {
  const base = presetOptions(state.preset);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state.options)) if (JSON.stringify(base[k as keyof TableOptions]) !== JSON.stringify(v)) out[k] = v;
  return out as Partial<TableOptions>;
}

function sheetUpdate(state: TableState, id: string, sheet: CharacterSheet, entry: HistoryEntry | undefined, dice: DiceSource, stamp: Stamp): TableEvent[] {
  const c = requireCharacter(state, id);
  const events: TableEvent[] = [{ type: 'sheet-updated', id, sheet, ...(entry ? { entry } : {}), ...stamp }];
  if (state.encounter.now?.characters[id]) {
    const character = combatantFromSheet(sheet, state.options, { id, controller: c.owner ?? 'gm' });
    events.push(...encounterEvents(state, { type: 'update-character', actor: 'gm', character }, dice, stamp, c.hidden));
  }
  return events;
}

function charactersIn(result: ChallengeResult): string[] {
  return [result.actor.name, result.reactor.name];
}

/** evolve(state, event) -> state. Never rolls, never mutates its input. */
export function evolveTable(state: TableState, event: TableEvent): TableState {
  // An event that names a character the table lacks cannot come from decide: refuse it (an import).
  checkEventApplies(state, event);
  const seq = state.seq + 1;
  // Each case copies the state once, with the next seq (the key keeps its place) and what the event changes.
  switch (event.type) {
    case 'configured':
      return { ...state, seq, preset: event.preset, options: event.options, log: appendLog(state.log, entry(seq, event, [], [`Table options: preset ${event.preset}.`])) };
    case 'character-added':
      return {
        ...state,
        seq,
        characters: { ...state.characters, [event.id]: { id: event.id, owner: event.owner, hidden: event.hidden, sheet: event.sheet } },
        log: appendLog(state.log, entry(seq, event, [event.id], [`${event.sheet.name} joins the table.`], event.hidden)),
      };
    case 'sheet-updated': {
      const c = state.characters[event.id]!;
      return { ...state, seq, characters: { ...state.characters, [event.id]: { ...c, sheet: event.sheet } }, log: appendLog(state.log, entry(seq, event, [event.id], [`${event.sheet.name}'s sheet changes${event.entry ? `: ${describeHistory(event.entry)}` : event.reason ? `: ${event.reason}` : ''}.`], c.hidden)) };
    }
    case 'character-removed': {
      const { [event.id]: removed, ...rest } = state.characters;
      return { ...state, seq, characters: rest, log: appendLog(state.log, entry(seq, event, [event.id], [`${removed?.sheet.name ?? event.id} leaves the table.`], removed?.hidden ?? false)) };
    }
    case 'visibility-set': {
      const c = state.characters[event.id]!;
      return { ...state, seq, characters: { ...state.characters, [event.id]: { ...c, hidden: event.hidden } }, log: appendLog(state.log, entry(seq, event, [event.id], [`${c.sheet.name} is ${event.hidden ? 'hidden from' : 'revealed to'} the players.`], true)) };
    }
    case 'owner-set': {
      const c = state.characters[event.id]!;
      return { ...state, seq, characters: { ...state.characters, [event.id]: { ...c, owner: event.owner } } };
    }
    case 'said':
      return { ...state, seq, log: appendLog(state.log, { ...entry(seq, event, [], [event.text]), said: { to: event.to } }) };
    case 'rolled': {
      // A roll in the open shows a hidden character's side as other open events about it do.
      const shown = event.hidden ? null : rollSeenBy(state, event.result, (id) => hiddenAtTable(state, id, state.encounter.now), hiddenSideShown(state.options));
      const written: LogEntry = {
        ...entry(seq, event, charactersIn(event.result), event.result.explanation, event.hidden),
        result: event.result,
        graded: state.options.grades !== 'core-2011',
        ...(event.purpose ? { purpose: event.purpose } : {}),
        ...(event.seal ? { commitment: { hash: event.seal.hash } } : {}),
        ...(shown ? { secretOf: shown.secretOf, public: { lines: shown.result.explanation, result: shown.result, characters: charactersIn(shown.result) } } : {}),
      };
      const diceTallies = tallyChallenge(state.diceTallies, event.by, event.result, state.options);
      if (!event.seal) return { ...state, seq, diceTallies, log: appendLog(state.log, written) };
      // The commitment entry follows the roll (seq + 1); the roll waits sealed until revealed.
      const sealed: SealedRoll = { hash: event.seal.hash, salt: event.seal.salt, dice: committedDice(event.result), result: event.result, ...(event.purpose ? { purpose: event.purpose } : {}), committedAt: seq + 1 };
      return { ...state, seq, diceTallies, sealed: keyedSet(state.sealed, sealed.hash, sealed), log: appendLog(state.log, written) };
    }
    case 'committed':
      return {
        ...state,
        seq,
        // Only the GM's rolls are sealed at this table (decide, case 'roll'): the GM rolled.
        log: appendLog(state.log, { ...entry(seq, event, [], [`${commitmentOpening({ gm: true }, event.reveal)}. Commitment (SHA-256 of the dice and a salt): ${event.hash}.`]), commitment: { hash: event.hash } }),
      };
    case 'revealed': {
      const sealed = keyedSet(state.sealed, event.hash, null);
      const when = event.when === 'gm' ? 'The GM reveals' : `At the end of the ${event.when}, the table reveals`;
      const opening = `${when} the secret roll committed in entry #${event.committedAt}: dice ${event.dice.join(', ')}, salt ${event.salt}.`;
      const lines = [opening, ...event.result.explanation];
      // A reveal publishes the dice: hidden sides show theirs whatever hiddenSideShown says.
      const shown = rollSeenBy(state, event.result, (id) => hiddenAtTable(state, id, state.encounter.now), 'dice');
      return {
        ...state,
        seq,
        sealed,
        log: appendLog(state.log, {
          ...entry(seq, event, charactersIn(event.result), lines),
          result: event.result,
          graded: state.options.grades !== 'core-2011',
          ...(event.purpose ? { purpose: event.purpose } : {}),
          reveal: { hash: event.hash, salt: event.salt, dice: event.dice, committedAt: event.committedAt },
          ...(shown ? { secretOf: shown.secretOf, public: { lines: [opening, ...shown.result.explanation], result: shown.result, characters: charactersIn(shown.result) } } : {}),
        }),
      };
    }
    case 'secret-reveal-set':
      return { ...state, seq, secretReveal: event.reveal, log: appendLog(state.log, entry(seq, event, [], [REVEAL_POLICY[event.reveal]])) };
    case 'encounter': {
      const before = state.encounter.now;
      const inner = event.event;
      const encounter = evolveEncounter(state.encounter, inner);
      const lastAction = stepBy(state.lastAction ?? null, inner, event.by);
      const diceTallies = inner.type === 'challenge-resolved' ? tallyChallenge(state.diceTallies, event.by, inner.result, state.options) : state.diceTallies;
      const back = inner.type === 'undone' || inner.type === 'redone' ? undoTarget(state.log, inner.toSequence) : null;
      const lines = back !== null && (inner.type === 'undone' || inner.type === 'redone') ? [undoLine(inner.type, back)] : describeEvent(inner, before);
      if (lines.length === 0) return { ...state, seq, encounter, lastAction, diceTallies };
      const undo = back !== null ? { undo: { kind: inner.type === 'undone' ? ('undo' as const) : ('redo' as const), to: back } } : {};
      const graded = inner.type === 'challenge-resolved' ? { graded: (before?.options ?? state.options).grades !== 'core-2011' } : {};
      const written: LogEntry = { ...entry(seq, event, involved(inner), lines, event.hidden), ...challengeOf(inner), ...graded, encounterSeq: inner.seq, ...undo };
      return { ...state, seq, encounter, lastAction, diceTallies, log: appendLog(state.log, { ...written, ...secretPart(state, event, before) }) };
    }
  }
}

/** The encounter's latest step after `inner`, issued by `by`: events of one action share its number. */
function stepBy(previous: LastAction | null, inner: EncounterEvent, by: string): LastAction {
  if (inner.type === 'undone' || inner.type === 'redone') return { kind: inner.type === 'undone' ? 'undo' : 'redo', action: inner.action, by: [by] };
  if (previous?.kind === 'action' && previous.action === inner.action) return previous.by.includes(by) ? previous : { ...previous, by: [...previous.by, by] };
  return { kind: 'action', action: inner.action, by: [by] };
}

/**
 * Who may undo or redo at the table. The GM may undo any action and redo any undo (within the
 * encounter's own rules). A player takes back only their own last action, and only while it is the
 * latest step of the encounter that anyone took; a player redoes only their own undo, right after
 * it. Returns why not, or null when the viewer may.
 */
export function undoRefusal(state: TableState, viewer: Viewer, kind: 'undo' | 'redo', toSequence?: number): string | null {
  if (viewer.role === 'gm') return null;
  if (viewer.role !== 'player') return 'observers watch the table; they cannot change it';
  const last = state.lastAction ?? null;
  const mine = last !== null && last.by.length > 0 && last.by.every((id) => id === viewer.participantId);
  if (kind === 'undo') {
    if (!mine || last.kind !== 'action') return 'a player takes back only their own last action, while nothing else has happened after it; ask the GM';
    if (toSequence !== undefined && toSequence !== state.encounter.undoTo) return 'a player takes back their own last action only, not further back; ask the GM';
    return null;
  }
  if (!mine || last.kind !== 'undo') return 'a player redoes only their own undo, right after it; ask the GM';
  return null;
}

/** Undo and redo in the log's own numbering: the last entry of the state they return to (0: before play began). */
function undoTarget(log: TableLog<LogEntry>, toSequence: number): number {
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log.shared[i]!;
    if (e.encounterSeq !== undefined && e.encounterSeq <= toSequence) return e.seq;
  }
  return 0;
}

function undoLine(type: 'undone' | 'redone', to: number): string {
  const where = to > 0 ? `where the table stood after entry #${to}` : 'where the table stood before play began';
  return type === 'undone' ? `UNDO: back to ${where}; what came after is taken back.` : `REDO: forward again to ${where}.`;
}

function describeHistory(e: HistoryEntry): string {
  if (e.type === 'award') return `awarded ${e.points} development point${e.points === 1 ? '' : 's'}`;
  if (e.type === 'undo') return `undid entry ${e.entry}`;
  if (e.purchase.kind === 'priorities' || e.purchase.kind === 'unspent-slot') return describePurchase(e.purchase);
  return `spent ${e.cost} development point${e.cost === 1 ? '' : 's'} on ${e.purchase.kind.replace(/-/g, " ")}`;
}

function entry(seq: number, event: Stamp, characters: readonly string[], lines: readonly string[], hidden = false): LogEntry {
  return { seq, at: event.at, by: event.by, hidden, characters, lines };
}

/** For an open event about characters hidden from the players: what those who may not see them read. */
/**
 * Whether players may not see this character's sheet or definition: a hidden table character; of
 * those that exist only in the encounter (no sheet), all but the obstacles the GM left in the open.
 */
function hiddenAtTable(state: TableState, id: string, before: EncounterState['now'], joining?: Combatant): boolean {
  const c = ownGet(state.characters, id);
  if (c) return c.hidden;
  const def = (before ? ownGet(before.characters, id)?.def : undefined) ?? joining;
  return def !== undefined && encounterOnlyHidden(def);
}

/**
 * A roll's sides that stand for characters hidden from a viewer (`hidden`), with the result as that
 * viewer reads it (rollerResult, showing those sides as `shown` says), or null when no side is hidden.
 * The roller names a side after the character it rolls for, so a side bearing a hidden character's
 * name is taken for that character. The side keeps the name while the character is in the scene,
 * where the viewer sees it by name.
 */
export function rollSeenBy(state: TableState, result: ChallengeResult, hidden: (id: string) => boolean, shown: HiddenSideShown): { secretOf: string[]; result: ChallengeResult } | null {
  const present = state.encounter.now?.characters ?? {};
  // Run on every roll folded and every roll redacted: loops, and no array made unless a side bears
  // the name of a hidden character (as a rule none does).
  let secretOf: string[] | null = null;
  let names: { actor?: string; reactor?: string } | null = null;
  for (const side of SIDES) {
    const name = result[side].name;
    const key = name.trim().toLowerCase();
    let ids: string[] | null = null;
    for (const id in state.characters) {
      const c = ownGet(state.characters, id);
      if (c && c.sheet.name.trim().toLowerCase() === key && hidden(c.id)) (ids ??= []).push(c.id);
    }
    for (const id in present) {
      const c = ownGet(present, id);
      if (c && !ownHas(state.characters, id) && c.def.name.trim().toLowerCase() === key && hidden(id)) (ids ??= []).push(id);
    }
    if (ids === null) continue;
    (secretOf ??= []).push(...ids);
    (names ??= {})[side] = ids.some((id) => ownGet(present, id)?.present) ? name : UNSEEN;
  }
  return secretOf !== null ? { secretOf, result: rollerResult(result, names ?? {}, shown, state.options) } : null;
}

const SIDES = ['actor', 'reactor'] as const;

function secretPart(state: TableState, event: Extract<TableEvent, { type: 'encounter' }>, before: EncounterState['now']): Pick<LogEntry, 'secretOf' | 'public'> {
  if (event.hidden) return {};
  const inner = event.event;
  const secretOf = concernedIds(inner).filter((id) => hiddenAtTable(state, id, before, inner.type === 'character-joined' || inner.type === 'character-updated' ? inner.character : undefined));
  if (secretOf.length === 0) return {};
  const secret = new Set(secretOf);
  const lines = publicLines(inner, secret, state.options, before);
  if (lines.length === 0) return { secretOf, public: null };
  const result = inner.type === 'challenge-resolved' ? publicResult(inner.result, { actor: secret.has(inner.actor), reactor: secret.has(inner.reactor) }, hiddenSideShown(state.options), state.options) : undefined;
  return { secretOf, public: { lines, ...(result ? { result } : {}) } };
}

function involved(e: EncounterEvent): string[] {
  const ids = new Set<string>();
  for (const key of ['actor', 'target', 'id', 'reactor']) {
    const v = (e as unknown as Record<string, unknown>)[key];
    if (typeof v === 'string') ids.add(v);
  }
  return [...ids];
}

function challengeOf(e: EncounterEvent): { result?: ChallengeResult } {
  const r = (e as unknown as { result?: ChallengeResult }).result;
  return r && typeof r === 'object' && 'outcome' in r ? { result: r } : {};
}
