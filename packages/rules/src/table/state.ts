import type { CharacterSheet, HistoryEntry } from '../character';
import type { ChallengeResult } from '../challenge';
import type { EncounterEvent, EncounterState } from '../encounter';
import type { Preset, TableOptions } from '../options';
import type { DiceTally } from './fairness';
import type { KeyedLog, TableLog } from './log';
import type { RevealedSecret, SealedRoll, SecretReveal } from './secret';

// The table's state and its events: what `decide` reads and `evolve` folds, apart from the rules
// that decide and fold them (./table.ts), so the checks beside the decider (./dice.ts,
// ./validate.ts) read the shape without importing the decider.

/** Who issues a command or looks at the table: core's one notion of a viewer. */
export type { Viewer } from '@personae/core';

export interface TableCharacter {
  readonly id: string;
  /** The participant who plays it; null for the GM's characters. */
  readonly owner: string | null;
  readonly hidden: boolean;
  readonly sheet: CharacterSheet;
}

/** One entry of the shared log. */
export interface LogEntry {
  readonly seq: number;
  readonly at: string;
  /** The participant who issued the command. */
  readonly by: string;
  readonly hidden: boolean;
  /** Characters the entry concerns (for filtering). */
  readonly characters: readonly string[];
  readonly lines: readonly string[];
  readonly result?: ChallengeResult;
  /** Whether the table graded successes clear or glancing when the entry was written (option grades), so its words stay those. */
  readonly graded?: boolean;
  readonly purpose?: string;
  /** For entries of the encounter engine: its own sequence number of the event. */
  readonly encounterSeq?: number;
  /**
   * For an undo or a redo: the log entry the table returns to (0: before play began). The entries of
   * the encounter after it, up to this one, are taken back by an undo and restored by a redo.
   */
  readonly undo?: { readonly kind: 'undo' | 'redo'; readonly to: number };
  /** Table talk: `lines` holds the words; `to` names the one recipient of a whisper ('gm' or a participant id). */
  readonly said?: { readonly to: string | null };
  /**
   * Characters hidden from the players when the entry was written that the entry speaks of. A viewer
   * who may not see one of them reads `public` in place of `lines` and `result` (null: nothing).
   */
  readonly secretOf?: readonly string[];
  readonly public?: { readonly lines: readonly string[]; readonly result?: ChallengeResult; readonly characters?: readonly string[] } | null;
  /** A secret roll's commitment (the entry that publishes it, and the GM's entry of the roll). */
  readonly commitment?: { readonly hash: string };
  /** A secret roll revealed: the dice and salt to check against its commitment (see ./secret.ts). */
  readonly reveal?: RevealedSecret;
}

/**
 * A log entry as a view carries it. A roll's lines are its result's explanation; the view leaves
 * `lines` out then, so that each view, state patch and welcome holds that text once (in `result`).
 */
export type ShownLogEntry = Omit<LogEntry, 'lines'> & { readonly lines?: readonly string[] };

/** The lines of an entry as shown, also where the view left them out for its result's explanation. */
export function entryLines(e: ShownLogEntry): readonly string[] {
  return e.lines ?? e.result?.explanation ?? [];
}

export interface TableState {
  /** Table events applied so far. */
  readonly seq: number;
  readonly preset: Preset;
  readonly options: TableOptions;
  readonly characters: Readonly<Record<string, TableCharacter>>;
  /** The shared log (see ./log.ts); `tableLog(state)` reads it. */
  readonly log: TableLog<LogEntry>;
  readonly encounter: EncounterState;
  /** When the table reveals the GM's secret rolls. */
  readonly secretReveal: SecretReveal;
  /** Secret rolls not yet revealed, by commitment hash (the GM's; never sent to players). */
  readonly sealed: KeyedLog<SealedRoll>;
  /** Dice typed in from physical dice, by the participant who entered them (./fairness.ts; the GM's view only). */
  readonly diceTallies: Readonly<Record<string, DiceTally>>;
  /** Who made the latest step of the encounter: an action (by everyone who added to it), an undo or a redo. */
  readonly lastAction: LastAction | null;
}

/** The encounter's latest step and the participants whose commands made it. */
export interface LastAction {
  readonly kind: 'action' | 'undo' | 'redo';
  /** The encounter's number of that action (its first event). */
  readonly action: number;
  readonly by: readonly string[];
}

interface Stamp {
  readonly by: string;
  readonly at: string;
}

export type TableEvent =
  | ({ readonly type: 'configured'; readonly preset: Preset; readonly options: TableOptions } & Stamp)
  | ({ readonly type: 'character-added'; readonly id: string; readonly owner: string | null; readonly hidden: boolean; readonly sheet: CharacterSheet } & Stamp)
  | ({
      readonly type: 'sheet-updated';
      readonly id: string;
      readonly sheet: CharacterSheet;
      readonly entry?: HistoryEntry;
      /** What changed, in words, when it is not an advancement (a purchase, a Resource Cap boost counting down). */
      readonly reason?: string;
    } & Stamp)
  | ({ readonly type: 'character-removed'; readonly id: string } & Stamp)
  | ({ readonly type: 'visibility-set'; readonly id: string; readonly hidden: boolean } & Stamp)
  | ({ readonly type: 'owner-set'; readonly id: string; readonly owner: string | null } & Stamp)
  | ({ readonly type: 'rolled'; readonly hidden: boolean; readonly purpose?: string; readonly result: ChallengeResult; readonly seal?: { readonly hash: string; readonly salt: string } } & Stamp)
  | ({ readonly type: 'committed'; readonly hash: string; readonly reveal: SecretReveal } & Stamp)
  | ({ readonly type: 'revealed'; readonly hash: string; readonly salt: string; readonly dice: readonly number[]; readonly result: ChallengeResult; readonly purpose?: string; readonly committedAt: number; readonly when: 'gm' | 'scene' | 'session' } & Stamp)
  | ({ readonly type: 'secret-reveal-set'; readonly reveal: SecretReveal } & Stamp)
  | ({ readonly type: 'encounter'; readonly hidden: boolean; readonly event: EncounterEvent } & Stamp)
  | ({ readonly type: 'said'; readonly text: string; readonly to: string | null } & Stamp);

/** Settings the table server keeps for a table: whether players may enter the results of physical dice. */
export interface TableSettings {
  readonly physicalDice: boolean;
}
