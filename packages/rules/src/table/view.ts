import { emptyTally, type CharacterState, type Snapshot, type SuccessTally } from '../encounter';
import { canHear, type LogEntry, type TableCharacter, type TableEvent, type TableState, type Viewer } from './table';

/**
 * What one participant may see. The GM sees everything. Players and observers see public characters
 * whole, hidden characters only by name and condition (never their sheets), and no hidden log entry
 * or hidden event. Nothing else about a hidden character leaves the server. A whisper reaches its
 * speaker and its recipient only, the GM included.
 */
export function canSeeSheet(c: TableCharacter, viewer: Viewer): boolean {
  return viewer.role === 'gm' || !c.hidden || (viewer.role === 'player' && c.owner === viewer.participantId);
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
  readonly viewer: Viewer;
  readonly characters: readonly CharacterView[];
  readonly scene: Omit<Snapshot, 'characters'> | null;
  /** The newest log entries the viewer may see, oldest first (at most LOG_VIEW_LIMIT). */
  readonly log: readonly LogEntry[];
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
}

function hiddenIds(state: TableState, viewer: Viewer): Set<string> {
  return new Set(Object.values(state.characters).filter((c) => !canSeeSheet(c, viewer)).map((c) => c.id));
}

function playView(state: CharacterState | undefined, showDef: boolean): CharacterView['play'] {
  if (!state) return null;
  if (showDef) return state;
  const { def: _def, hits: _hits, ...rest } = state;
  return { ...rest, hits: 0, tally: emptyTally(state.tally.session), lastSessionTally: null };
}

/** A view carries the newest entries of the log; a long session's whole log is not resent with every view. */
export const LOG_VIEW_LIMIT = 500;

function visibleLog(log: readonly LogEntry[], viewer: Viewer): { log: readonly LogEntry[]; logOmitted: number } {
  const visible = log.filter((e) => (viewer.role === 'gm' || !e.hidden) && (!e.said || canHear({ by: e.by, to: e.said.to }, viewer)));
  const omitted = Math.max(0, visible.length - LOG_VIEW_LIMIT);
  return { log: omitted > 0 ? visible.slice(omitted) : visible, logOmitted: omitted };
}

export function viewTable(state: TableState, viewer: Viewer): TableView {
  const now = state.encounter.now;
  const characters = Object.values(state.characters)
    .filter((c) => viewer.role === 'gm' || !c.hidden || now?.characters[c.id]?.present)
    .map((c) => {
      const see = canSeeSheet(c, viewer);
      return { id: c.id, name: c.sheet.name, owner: c.owner, hidden: c.hidden, sheet: see ? c.sheet : null, play: playView(now?.characters[c.id], see) };
    });
  let scene: TableView['scene'] = null;
  if (now) {
    const { characters: _c, ...rest } = now;
    scene = rest;
  }
  const development = characters.flatMap((c) => {
    const play = now?.characters[c.id];
    return play && c.sheet !== null ? [{ id: c.id, name: c.name, tally: play.tally, lastSession: play.lastSessionTally }] : [];
  });
  return {
    seq: state.seq,
    preset: state.preset,
    options: state.options,
    viewer,
    characters,
    scene,
    ...visibleLog(state.log, viewer),
    development: { countsOnlyClear: state.options.developmentCountsOnlyClear, characters: development },
    canUndo: state.encounter.undoTo !== null,
    canRedo: state.encounter.redo.length > 0,
  };
}

/**
 * An event as one participant may receive it, or null. Events that carry a hidden character's
 * sheet or definition are withheld; hidden rolls and hidden encounter events go to the GM only.
 */
export function redactTableEvent(event: TableEvent, viewer: Viewer, state: TableState): TableEvent | null {
  if (event.type === 'said') return canHear(event, viewer) ? event : null;
  if (viewer.role === 'gm') return event;
  if ('hidden' in event && event.hidden && event.type !== 'character-added' && event.type !== 'visibility-set') return null;
  const hidden = hiddenIds(state, viewer);
  switch (event.type) {
    case 'character-added':
    case 'sheet-updated':
      return hidden.has(event.id) ? null : event;
    case 'visibility-set':
      return null;
    case 'encounter':
      return redactEncounterEvent(event, hidden);
    default:
      return event;
  }
}

function redactEncounterEvent(event: Extract<TableEvent, { type: 'encounter' }>, hidden: Set<string>): TableEvent | null {
  const inner = event.event;
  if (inner.type === 'set-up') {
    const characters = inner.characters.filter((c) => !hidden.has(c.id));
    return { ...event, event: { ...inner, characters } };
  }
  if ((inner.type === 'character-joined' || inner.type === 'character-updated') && hidden.has(inner.character.id)) return null;
  return event;
}
