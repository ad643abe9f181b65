// The state of a Lucidity encounter: the game the events fold into, and the log undo folds again.

import type { Chain, TableLog, UndoMark } from '@personae/core';
import type { Combatant } from './combatant';
import type { LucidityEvent } from './events';

export interface Game {
  readonly combatants: Readonly<Record<string, Combatant>>;
  /** Ids in the order they were added. */
  readonly roster: readonly string[];
  readonly order: readonly string[];
  readonly round: number;
  readonly turn: number;
  readonly started: boolean;
}

export interface LucidityTableState {
  readonly preset: string;
  readonly overrides: Readonly<Record<string, unknown>>;
  readonly game: Game;
  /** Every event so far, by sequence from 1, for undo (the game is the fold of the entries in effect). */
  readonly log: TableLog<LucidityEvent>;
  readonly marks: TableLog<UndoMark>;
  /** The entries in effect, oldest first, each with the game before it (the fold of those below it). */
  readonly inEffect: Chain<{ readonly seq: number; readonly before: Game }> | null;
  /** Undone entries a redo brings back, the next one on top. */
  readonly redoable: Chain<number> | null;
}
