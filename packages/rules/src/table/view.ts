import { ownHas } from '@personae/core';
import { emptyTally, type CharacterState, type Combat, type LastChallenge, type Snapshot, type SuccessTally } from '../encounter';
import { fairnessRows, type FairnessRow } from './fairness';
import { hiddenSideShown, publicEncounterEvent, WITHHELD } from './hidden';
import { keyedValues, type TableLog } from './log';
import type { LogEntry, ShownLogEntry, TableCharacter, TableEvent, TableState, Viewer } from './state';
import { canHear, rollSeenBy, undoRefusal } from './table';

/**
 * What one participant may see. The GM sees everything. Players and observers see public characters
 * whole, hidden characters only by name and condition (never their sheets), and no hidden log entry
 * or hidden event. Nothing else about a hidden character leaves the server. A whisper reaches its
 * speaker and its recipient only, the GM included.
 */
export function canSeeSheet(c: TableCharacter, viewer: Viewer): boolean {
  return viewer.role === 'gm' || !c.hidden || (viewer.role === 'player' && c.owner === viewer.participantId);
}

/**
 * What a viewer may do with a character's portrait: its owner and the GM set it; whoever may see the
 * sheet sees it; of a hidden character the others see nothing, as of its sheet.
 */
export function portraitAccess(state: TableState, characterId: string, viewer: Viewer): 'edit' | 'see' | null {
  if (!ownHas(state.characters, characterId)) return null;
  const c = state.characters[characterId]!;
  if (viewer.role === 'gm' || (viewer.role === 'player' && c.owner === viewer.participantId)) return 'edit';
  return canSeeSheet(c, viewer) ? 'see' : null;
}

export interface CharacterView {
  readonly id: string;
  readonly name: string;
  readonly owner: string | null;
  readonly hidden: boolean;
  /** null when the viewer may not see the sheet. */
  readonly sheet: TableCharacter['sheet'] | null;
  /** The character in play (hits, status), without its definition when the sheet is hidden. */
  readonly play: (Omit<CharacterState, 'def'> & { readonly def?: CharacterState['def'] }) | null;
}

/** One character's tally, for awarding development points. */
export interface DevelopmentRow {
  readonly id: string;
  readonly name: string;
  readonly tally: SuccessTally;
  readonly lastSession: SuccessTally | null;
}

export interface TableView {
  readonly seq: number;
  readonly preset: TableState['preset'];
  readonly options: TableState['options'];
  readonly characters: readonly CharacterView[];
  readonly scene: Omit<Snapshot, 'characters'> | null;
  /** The newest log entries the viewer may see, oldest first (at most LOG_VIEW_LIMIT). */
  readonly log: readonly ShownLogEntry[];
  /** How many older entries the viewer may see were left out of `log`. */
  readonly logOmitted: number;
  /**
   * Successes and failures of the challenges each character issued, this session and the one
   * before, so that the GM can award development points from them; `countsOnlyClear` is option
   * developmentCountsOnlyClear (glancing successes are then listed as not counted).
   */
  readonly development: { readonly countsOnlyClear: boolean; readonly characters: readonly DevelopmentRow[] };
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /**
   * Secret rolls: when the table reveals them, and (for the GM only, empty for everyone else) the
   * commitments of those not yet revealed, oldest first.
   */
  /**
   * The fairness check of physical dice, per participant who typed dice in: the GM's view only (null
   * in everyone else's). See ./fairness.ts.
   */
  readonly diceFairness: readonly FairnessRow[] | null;
  readonly secretRolls: { readonly reveal: TableState['secretReveal']; readonly sealed: readonly { readonly hash: string; readonly committedAt: number; readonly purpose?: string }[] };
}

/** Characters in play or at the table whose sheets the viewer may not see. */
function secretIds(state: TableState, viewer: Viewer): Set<string> {
  const out = new Set<string>();
  if (viewer.role === 'gm') return out;
  for (const c of Object.values(state.characters)) if (!canSeeSheet(c, viewer)) out.add(c.id);
  // Characters that exist only in the encounter have no sheet to show; obstacles the GM has not hidden are seen like public characters.
  for (const [id, c] of Object.entries(state.encounter.now?.characters ?? {})) if (!ownHas(state.characters, id) && !(c.def.obstacle && !c.def.obstacle.hidden)) out.add(id);
  return out;
}

/**
 * A character hidden from the viewer, in play: its condition (status, consciousness, whether it is in
 * the scene and where), and nothing of its hits, recovery, tallies, resolve or criticals.
 */
function conditionOnly(c: CharacterState): NonNullable<CharacterView['play']> {
  return {
    hits: 0,
    status: c.status,
    conscious: c.conscious,
    stabilized: c.stabilized,
    relapse: false,
    outForScene: c.outForScene,
    recoverFromScene: 0,
    lastRecoveryScene: null,
    healLater: null,
    present: c.present,
    position: c.position,
    readiedSuccess: false,
    tally: emptyTally(c.tally.session),
    lastSessionTally: null,
    resolve: null,
  };
}

/** A view carries the newest entries of the log; a long session's whole log is not resent with every view. */
export const LOG_VIEW_LIMIT = 500;

/**
 * The two ways an entry can be shown (whole, or its public part), built once per entry: log entries
 * never change, so every view that shows an entry the same way holds the same object, and views of
 * consecutive states can be compared entry by entry by identity.
 */
const shownEntries = new WeakMap<LogEntry, { whole?: ShownLogEntry | null; publicPart?: ShownLogEntry | null }>();

/**
 * The log window each kind of viewer was last shown, per shared log array (see ./log.ts): which
 * entries it held and how many older ones were left out, up to which length of the log. A view of a
 * later state of the same log then only looks at the entries appended since. Kinds of viewer are
 * told apart by role, participant (whispers) and the characters whose sheets they may not see.
 */
interface LogWindow {
  length: number;
  shown: ShownLogEntry[];
  omitted: number;
  /** The copy of `shown` last handed out, while `shown` has not changed since: views share it. */
  copy: readonly ShownLogEntry[] | null;
}
const logWindows = new WeakMap<readonly LogEntry[], Map<string, LogWindow>>();
/** Kinds of viewer remembered per log, at most (a table seldom has more than a few dozen). */
const MAX_LOG_WINDOWS = 64;

/** A log entry as the viewer may read it, or null. */
function entryFor(e: LogEntry, viewer: Viewer, secret: ReadonlySet<string>): ShownLogEntry | null {
  if (viewer.role !== 'gm' && e.hidden) return null;
  if (e.said && !canHear({ by: e.by, to: e.said.to }, viewer)) return null;
  const open = viewer.role === 'gm' || !e.secretOf || !e.secretOf.some((id) => secret.has(id));
  let shown = shownEntries.get(e);
  if (!shown) shownEntries.set(e, (shown = {}));
  const known = open ? shown.whole : shown.publicPart;
  if (known !== undefined) return known;
  const built = shownAs(e, open);
  if (open) shown.whole = built;
  else shown.publicPart = built;
  return built;
}

function shownAs(e: LogEntry, open: boolean): ShownLogEntry | null {
  const lines = open ? e.lines : e.public?.lines;
  if (!lines) return null;
  const result = open ? e.result : e.public?.result;
  return {
    seq: e.seq,
    at: e.at,
    by: e.by,
    hidden: e.hidden,
    characters: open ? e.characters : (e.public?.characters ?? e.characters),
    ...(result && sameLines(lines, result.explanation) ? {} : { lines }),
    ...(result ? { result } : {}),
    ...(e.purpose !== undefined ? { purpose: e.purpose } : {}),
    ...(e.encounterSeq !== undefined ? { encounterSeq: e.encounterSeq } : {}),
    ...(e.said ? { said: e.said } : {}),
    ...(e.undo ? { undo: e.undo } : {}),
    ...(e.commitment ? { commitment: e.commitment } : {}),
    ...(e.reveal ? { reveal: e.reveal } : {}),
  };
}

/** Whether an entry's lines are its result's explanation (the same array, as a roll writes them, or equal). */
function sameLines(lines: readonly string[], explanation: readonly string[]): boolean {
  if (lines === explanation) return true;
  if (lines.length !== explanation.length) return false;
  for (let i = 0; i < lines.length; i++) if (lines[i] !== explanation[i]) return false;
  return true;
}

/** The characters of a set of hidden sheets in one text, for the key of a log window (sets are reused with the views' parts). */
const secretKeys = new WeakMap<ReadonlySet<string>, string>();

function visibleLog(log: TableLog<LogEntry>, viewer: Viewer, secret: ReadonlySet<string>): { log: readonly ShownLogEntry[]; logOmitted: number } {
  let secretKey = secretKeys.get(secret);
  if (secretKey === undefined) secretKeys.set(secret, (secretKey = [...secret].sort().join(',')));
  // A player or observer who never spoke or heard a private whisper sees the same entries as any
  // other such viewer with the same hidden characters: they share one window (and its copy).
  const whoever = viewer.role !== 'gm' && !partiesToWhispers(log).has(viewer.participantId);
  const key = `${viewer.role}:${whoever ? '' : viewer.participantId}:${secretKey}`;
  let windows = logWindows.get(log.shared);
  if (!windows) logWindows.set(log.shared, (windows = new Map()));
  const known = windows.get(key);
  if (known && known.length <= log.length && log.length - known.length <= LOG_VIEW_LIMIT) {
    // The entries appended since: O(1) per new entry instead of a walk over the whole log.
    for (let i = known.length; i < log.length; i++) {
      const seen = entryFor(log.shared[i]!, viewer, secret);
      if (!seen) continue;
      known.shown.push(seen);
      known.copy = null;
      if (known.shown.length > LOG_VIEW_LIMIT) {
        known.shown.shift();
        known.omitted++;
      }
    }
    known.length = log.length;
    return { log: (known.copy ??= known.shown.slice()), logOmitted: known.omitted };
  }
  const whole = walkLog(log, viewer, secret);
  // A state older than the one remembered (a replay) leaves the newer window in place.
  if (!known || known.length <= log.length) {
    if (windows.size >= MAX_LOG_WINDOWS) windows.clear();
    windows.set(key, { length: log.length, shown: whole.log.slice(), omitted: whole.logOmitted, copy: whole.log });
  }
  return whole;
}

/** The newest LOG_VIEW_LIMIT entries the viewer may see, walking the log from its end. */
function walkLog(log: TableLog<LogEntry>, viewer: Viewer, secret: ReadonlySet<string>): { log: ShownLogEntry[]; logOmitted: number } {
  const newest: ShownLogEntry[] = [];
  let omitted = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log.shared[i]!;
    if (viewer.role !== 'gm' && e.hidden) continue;
    if (e.said && !canHear({ by: e.by, to: e.said.to }, viewer)) continue;
    if (newest.length >= LOG_VIEW_LIMIT) {
      // Past the window, counted without building the shown form: an entry passing the checks above
      // is shown whole or by its public part (which always has lines) exactly when this holds.
      if (viewer.role === 'gm' || !e.secretOf?.some((id) => secret.has(id)) || e.public) omitted++;
      continue;
    }
    const seen = entryFor(e, viewer, secret);
    if (seen) newest.push(seen);
  }
  return { log: newest.reverse(), logOmitted: omitted };
}

/** The entry that wrote each challenge's result, as found in a log up to some length. */
const writtenChallenges = new WeakMap<object, { shared: readonly LogEntry[]; upTo: number; entry: LogEntry }>();

/** The challenge resolved last, if the viewer saw it made, as they saw it. */
function lastChallengeView(state: TableState, last: LastChallenge | null, secret: ReadonlySet<string>, key: string): LastChallenge | null {
  if (!last) return null;
  const log = state.log;
  // The newest entry holding this result; a search of the same log done before for a shorter length
  // is carried on over the entries appended since.
  const known = writtenChallenges.get(last.result);
  const from = known && known.shared === log.shared && known.upTo <= log.length ? known.upTo : 0;
  let written: LogEntry | undefined;
  for (let i = log.length - 1; i >= from && !written; i--) if (log.shared[i]!.result === last.result) written = log.shared[i];
  if (!written && from > 0) written = known!.entry;
  if (written) writtenChallenges.set(last.result, { shared: log.shared, upTo: log.length, entry: written });
  if (!written || written.hidden) return null;
  const hidden = { actor: secret.has(last.actor), reactor: secret.has(last.reactor) };
  if (!hidden.actor && !hidden.reactor) return last;
  const result = written.public?.result;
  if (!result) return null;
  return reused(state, key, () => ({
    kind: last.kind,
    actor: last.actor,
    reactor: last.reactor,
    skill: hidden.actor ? WITHHELD : last.skill,
    reactorSkill: hidden.reactor ? WITHHELD : last.reactorSkill,
    encounter: last.encounter,
    result,
  }), last, result, hidden.actor, hidden.reactor);
}

function combatView(c: Combat, secret: ReadonlySet<string>, listed: ReadonlySet<string>): Combat {
  const order = c.order.filter((id) => listed.has(id));
  const keep = <V>(record: Readonly<Record<string, V>>, ok: (id: string, v: V) => boolean): Record<string, V> => {
    const out = Object.create(null) as Record<string, V>;
    for (const [id, v] of Object.entries(record)) if (ok(id, v)) out[id] = v;
    return out;
  };
  return {
    method: c.method,
    order,
    round: c.round,
    index: order.indexOf(c.order[c.index] ?? ''),
    turn: { actor: c.turn.actor, moves: c.turn.moves, actionUsed: c.turn.actionUsed, ability: secret.has(c.turn.actor) ? null : c.turn.ability },
    actedThisRound: c.actedThisRound.filter((id) => listed.has(id)),
    defenses: keep(c.defenses, (id) => !secret.has(id)),
    assists: keep(c.assists, (id, primary) => listed.has(id) && listed.has(primary) && !secret.has(id)),
    spentAhead: c.spentAhead.filter((id) => listed.has(id)),
    abilityUse: keep(c.abilityUse, (id) => !secret.has(id)),
  };
}

/**
 * The scene as a player or observer sees it, field by field: time and stage, the order of those they
 * can see, whose turn it is, and of characters hidden from them nothing but what the table sees them
 * do (no ability used, defense declared, criticals banked, uses counted or effects' powers).
 */
function sceneView(state: TableState, now: Snapshot, viewer: Viewer, secret: ReadonlySet<string>, listed: ReadonlySet<string>, lastChallenge: LastChallenge | null): TableView['scene'] {
  if (viewer.role === 'gm') {
    const { characters: _c, ...rest } = now;
    return rest;
  }
  const banks = Object.create(null) as Record<string, Snapshot['banks'][string]>;
  for (const [owner, entries] of Object.entries(now.banks)) if (!secret.has(owner)) banks[owner] = entries;
  const usage = Object.create(null) as Record<string, number>;
  for (const [key, n] of Object.entries(now.usage)) if (!key.split('|').some((part) => secret.has(part))) usage[key] = n;
  const effects = now.effects
    .filter((e) => !secret.has(e.owner) || e.targets.some((t) => listed.has(t) && !secret.has(t)))
    .map((e) => (secret.has(e.owner) ? { id: e.id, power: WITHHELD, owner: e.owner, targets: e.targets.filter((t) => listed.has(t)), duration: e.duration, maintainedRound: e.maintainedRound, encounter: e.encounter } : e));
  return {
    title: now.title,
    options: now.options,
    clock: now.clock,
    betweenSessions: now.betweenSessions,
    roster: now.roster.filter((id) => listed.has(id)),
    escalatedBy: now.escalatedBy !== null && listed.has(now.escalatedBy) ? now.escalatedBy : null,
    combat: now.combat ? combatView(now.combat, secret, listed) : null,
    banks,
    usage,
    effects,
    nextEffectId: now.nextEffectId,
    lastChallenge,
    // The ability is its owner's: what it makes follow is seen by all who may see that character.
    followUp: now.followUp && !secret.has(now.followUp.owner) ? now.followUp : null,
  };
}

/**
 * Parts of views remembered per table (by its shared log array) and per kind of viewer, with the
 * objects each was built from. A view of a later state whose inputs are the same objects takes the
 * part itself: building it costs a look-up, and comparing the view with the one sent before (the
 * table server's state-patch) finds the part unchanged by identity. Parts are pure functions of
 * their inputs, so a part taken again equals the one built anew.
 */
const viewParts = new WeakMap<object, Map<string, ViewPart>>();

/** A part and the (up to four) inputs it was built from, as fields: no array of them per view built. */
interface ViewPart {
  a: unknown;
  b: unknown;
  c: unknown;
  d: unknown;
  value: unknown;
}

function reused<T>(state: TableState, key: string, build: () => T, a: unknown, b?: unknown, c?: unknown, d?: unknown): T {
  let parts = viewParts.get(state.log.shared);
  if (!parts) viewParts.set(state.log.shared, (parts = new Map()));
  const known = parts.get(key);
  if (known && known.a === a && known.b === b && known.c === c && known.d === d) return known.value as T;
  const value = build();
  if (known) {
    known.a = a;
    known.b = b;
    known.c = c;
    known.d = d;
    known.value = value;
    return value;
  }
  // Six parts per kind of viewer; as with the log windows, a table seldom has more than a few dozen kinds.
  if (parts.size >= MAX_LOG_WINDOWS * 6) parts.clear();
  parts.set(key, { a, b, c, d, value });
  return value;
}

/** The keys of a kind of viewer's parts, made once per viewer object rather than per view. */
interface PartKeys {
  role: Viewer['role'];
  participantId: string;
  cast: string;
  scene: string;
  lastChallenge: string;
}
const partKeys = new WeakMap<Viewer, PartKeys>();

function keysOf(viewer: Viewer): PartKeys {
  let keys = partKeys.get(viewer);
  if (keys === undefined || keys.role !== viewer.role || keys.participantId !== viewer.participantId) {
    const kind = `${viewer.role}:${viewer.participantId}`;
    keys = { role: viewer.role, participantId: viewer.participantId, cast: `cast:${kind}`, scene: `scene:${kind}`, lastChallenge: `lastChallenge:${kind}` };
    partKeys.set(viewer, keys);
  }
  return keys;
}

/** The characters a viewer is shown, their ids, the sheets hidden from it, and the development rows. */
interface CastView {
  readonly characters: readonly CharacterView[];
  readonly listed: ReadonlySet<string>;
  readonly secret: ReadonlySet<string>;
  readonly development: TableView['development'];
}

function castView(state: TableState, viewer: Viewer): CastView {
  const now = state.encounter.now;
  const secret = secretIds(state, viewer);
  const characters: CharacterView[] = Object.values(state.characters)
    .filter((c) => viewer.role === 'gm' || !c.hidden || canSeeSheet(c, viewer) || now?.characters[c.id]?.present)
    .map((c) => {
      const see = canSeeSheet(c, viewer);
      const play = now && ownHas(now.characters, c.id) ? now.characters[c.id]! : undefined;
      return { id: c.id, name: c.sheet.name, owner: c.owner, hidden: c.hidden, sheet: see ? c.sheet : null, play: play ? (see ? play : conditionOnly(play)) : null };
    });
  // Obstacles and hazards in play (personae-core-2011.txt "Obstacles"): no sheet; a hidden one shows its name and condition only.
  for (const c of Object.values(now?.characters ?? {})) {
    if (!c.def.obstacle || ownHas(state.characters, c.def.id) || !c.present) continue;
    const see = viewer.role === 'gm' || !c.def.obstacle.hidden;
    characters.push({ id: c.def.id, name: c.def.name, owner: null, hidden: c.def.obstacle.hidden, sheet: null, play: see ? c : conditionOnly(c) });
  }
  const listed = new Set(characters.map((c) => c.id));
  const rows = characters.flatMap((c) => {
    const play = now && ownHas(now.characters, c.id) ? now.characters[c.id] : undefined;
    return play && c.sheet !== null ? [{ id: c.id, name: c.name, tally: play.tally, lastSession: play.lastSessionTally }] : [];
  });
  return { characters, listed, secret, development: { countsOnlyClear: state.options.developmentCountsOnlyClear, characters: rows } };
}

export function viewTable(state: TableState, viewer: Viewer): TableView {
  const now = state.encounter.now;
  const keys = keysOf(viewer);
  const cast = reused(state, keys.cast, () => castView(state, viewer), state.characters, now?.characters, state.options.developmentCountsOnlyClear);
  const { secret, listed } = cast;
  let scene: TableView['scene'] = null;
  if (now) {
    // The GM's scene holds the last challenge as it is.
    const last = viewer.role === 'gm' ? null : lastChallengeView(state, now.lastChallenge, secret, keys.lastChallenge);
    scene = reused(state, keys.scene, () => sceneView(state, now, viewer, secret, listed, last), now, secret, listed, last);
  }
  const gm = viewer.role === 'gm';
  return {
    seq: state.seq,
    preset: state.preset,
    options: state.options,
    characters: cast.characters,
    scene,
    ...visibleLog(state.log, viewer, secret),
    development: cast.development,
    canUndo: state.encounter.undoTo !== null && undoRefusal(state, viewer, 'undo') === null,
    canRedo: state.encounter.redo.length > 0 && undoRefusal(state, viewer, 'redo') === null,
    diceFairness: gm ? reused(state, 'fairness', () => fairnessRows(state.diceTallies), state.diceTallies) : null,
    secretRolls: reused(
      state,
      gm ? 'secrets:true' : 'secrets:false',
      () => ({
        reveal: state.secretReveal,
        sealed: gm
          ? keyedValues(state.sealed)
              .sort((a, b) => a.committedAt - b.committedAt)
              .map((s) => ({ hash: s.hash, committedAt: s.committedAt, ...(s.purpose !== undefined ? { purpose: s.purpose } : {}) }))
          : [],
      }),
      state.secretReveal,
      state.sealed,
    ),
  };
}

/**
 * Participants who spoke or were spoken to in a private whisper, per shared log array, and up to which
 * length of it they were gathered. A state of the same log with fewer entries is answered with the
 * set gathered so far: it may name more participants than that state's whispers, never fewer.
 */
const whisperParties = new WeakMap<readonly LogEntry[], { length: number; parties: Set<string> }>();

function partiesToWhispers(log: TableLog<LogEntry>): ReadonlySet<string> {
  let known = whisperParties.get(log.shared);
  if (!known) whisperParties.set(log.shared, (known = { length: 0, parties: new Set() }));
  for (let i = known.length; i < log.length; i++) {
    const e = log.shared[i]!;
    if (e.said && e.said.to !== null) {
      known.parties.add(e.by);
      known.parties.add(e.said.to);
    }
  }
  if (log.length > known.length) known.length = log.length;
  return known.parties;
}

/**
 * Which viewers `viewTable` shows the same view (the table server builds it once for all of them).
 * A player's view depends on who they are only through the hidden characters they own (whose sheets
 * they see), the whispers they spoke or heard, and whether the last action is theirs to undo or
 * redo; players with none of the first two and the same answer to the last share one view. Observers
 * all see the same. The GM, and every player who owns a hidden character or took part in a private
 * whisper, is an audience of their own.
 */
export function tableAudience(state: TableState, viewer: Viewer): string {
  // Shared audiences never begin with "participant", the audiences of one.
  if (viewer.role === 'observer') return 'observers';
  const own = `participant ${viewer.role} ${viewer.participantId}`;
  if (viewer.role !== 'player' || partiesToWhispers(state.log).has(viewer.participantId)) return own;
  for (const c of Object.values(state.characters)) if (c.hidden && c.owner === viewer.participantId) return own;
  const undo = state.encounter.undoTo !== null && undoRefusal(state, viewer, 'undo') === null;
  const redo = state.encounter.redo.length > 0 && undoRefusal(state, viewer, 'redo') === null;
  return `players${undo ? ' undo' : ''}${redo ? ' redo' : ''}`;
}

/**
 * An event as one participant may receive it, or null. Hidden rolls and hidden encounter events go to
 * the GM only; an event about a character hidden from the viewer arrives in its public form (see
 * ./hidden.ts), or not at all when it would carry the character's sheet or definition.
 */
export function redactTableEvent(event: TableEvent, viewer: Viewer, state: TableState): TableEvent | null {
  if (event.type === 'said') return canHear(event, viewer) ? event : null;
  if (viewer.role === 'gm') return event;
  if ('hidden' in event && event.hidden && event.type !== 'character-added' && event.type !== 'visibility-set') return null;
  const secret = secretIds(state, viewer);
  switch (event.type) {
    case 'character-added':
    case 'sheet-updated':
    case 'owner-set':
      return secret.has(event.id) || !ownHas(state.characters, event.id) ? null : event;
    case 'visibility-set':
      return null;
    case 'rolled': {
      // Shown as other open events about hidden characters are (option hiddenSideShown).
      const shown = rollSeenBy(state, event.result, (id) => secret.has(id), hiddenSideShown(state.options));
      if (!shown) return event;
      const { by, at } = event;
      return { type: 'rolled', hidden: false, result: shown.result, ...(event.purpose !== undefined ? { purpose: event.purpose } : {}), by, at };
    }
    case 'revealed': {
      // A reveal shows the dice and the outcome, not what the viewer may not see of the characters rolled for.
      const shown = rollSeenBy(state, event.result, (id) => secret.has(id), 'dice');
      if (!shown) return event;
      const { hash, salt, dice, committedAt, when, by, at } = event;
      return { type: 'revealed', hash, salt, dice, result: shown.result, ...(event.purpose !== undefined ? { purpose: event.purpose } : {}), committedAt, when, by, at };
    }
    case 'encounter': {
      const inner = publicEncounterEvent(event.event, secret, state.options, state.encounter.now);
      if (inner === null) return null;
      return inner === event.event ? event : { type: 'encounter', hidden: false, by: event.by, at: event.at, event: inner };
    }
    default:
      return event;
  }
}
