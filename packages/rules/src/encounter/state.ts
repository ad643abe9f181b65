import type { AbilityEffect } from '../effects';
import type { TableOptions } from '../options';
import type { Clock, Stamp } from '../time';
import type { ChallengeResult } from '../challenge';
import type { AttributeKey, Combatant, Duration } from './combatant';
import type { Status } from './injury';

/** The kinds of challenge an encounter resolves. */
export type ChallengeKind = 'attack' | 'power' | 'interaction' | 'virtual' | 'recovery' | 'unopposed';

/**
 * Where a character is (personae-core-2011.txt "Distance and Location"): a relative term such as
 * "close" or "pretty far" (option distance = relative), or a square of the grid (distance = grid).
 */
export type Place = string | { readonly x: number; readonly y: number };

/** A place in words: the term itself, or "(x, y)". */
export function placeText(l: Place): string {
  return typeof l === 'string' ? l : `(${l.x}, ${l.y})`;
}

/**
 * The challenges a character issued in one session, won and lost, for the GM to award development
 * points from (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering": by
 * default only clear successes are marked; option developmentCountsOnlyClear).
 */
export interface SuccessTally {
  readonly session: number;
  readonly successes: number;
  readonly failures: number;
  /** Glancing successes not counted because the table counts only clear ones. */
  readonly uncounted: number;
}

export function emptyTally(session: number): SuccessTally {
  return { session, successes: 0, failures: 0, uncounted: 0 };
}

/**
 * A resolve-like track for extended non-violent challenges (personae-core-2011.txt "Non-Violent
 * Encounters": "a system similar to a character's Health"; option nonViolentExtended = health-track).
 * Like hits before Injured it holds 1 + an attribute: the one the character answered with when it was
 * first worn in the encounter. Each interaction challenge won against the character wears it by one;
 * when it is worn through, the character yields.
 */
export interface ResolveTrack {
  readonly encounter: number;
  readonly worn: number;
  readonly size: number;
  readonly attribute: AttributeKey;
  readonly yielded: boolean;
}

/** The challenge resolved last at the table, for a subsequent challenge that follows it at once. */
export interface LastChallenge {
  readonly kind: ChallengeKind;
  readonly actor: string;
  readonly reactor: string;
  readonly skill: string;
  readonly reactorSkill: string;
  /** The encounter it was made in, or null outside encounters. */
  readonly encounter: number | null;
  readonly result: ChallengeResult;
}

/**
 * A challenge that follows at once from a special ability (personae-core-2011.txt "What Special
 * Abilities Can Do"). Taunt: the taunted opponent (`actor`) owes its taunter (`reactor`) an Attack
 * Challenge, issued out of turn without spending an action. Misdirection: the ability's owner
 * (`actor`) may issue one follow-up challenge to the same opponent (`reactor`), who rerolls dice of its
 * answer. It is taken or lapses with the next command at the table.
 */
export interface FollowUp {
  readonly kind: 'taunt' | 'misdirection';
  /** The special ability's name, as its owner's sheet has it. */
  readonly ability: string;
  /** Whose ability it is. */
  readonly owner: string;
  /** Who issues the challenge that follows. */
  readonly actor: string;
  /** Who answers it. */
  readonly reactor: string;
  /** Misdirection: the reroll its answer must make. */
  readonly reroll?: { readonly dice: number; readonly keep: 'second' | 'better'; readonly mayTouchHighest: boolean };
}

/** One character in play: its definition and everything play has done to it. */
export interface CharacterState {
  readonly def: Combatant;
  /** Hits of injury tallied (personae-core-2011.txt "Injury and Death"). */
  readonly hits: number;
  /** The status in effect: its penalty applies; a new one waits for the end of the round. */
  readonly status: Status;
  readonly conscious: boolean;
  /** A Dying character someone has stabilized does not die at the end of the encounter. */
  readonly stabilized: boolean;
  /**
   * Woke from Incapacitated through recovery: acting in a violent encounter before a non-violent
   * encounter has been completed knocks it out again at the end of the first round it acts in.
   */
  readonly relapse: boolean;
  /** The scene in which the character is out, convalescing: it may only attempt recovery. */
  readonly outForScene: number | null;
  /** The first scene in which the next recovery challenge may be attempted. */
  readonly recoverFromScene: number;
  readonly lastRecoveryScene: number | null;
  /** Hits that will be removed at the end of a scene (the other half after recovering from Injured). */
  readonly healLater: { readonly hits: number; readonly atEndOfScene: number } | null;
  /** Whether the character is in the current scene. */
  readonly present: boolean;
  /** Where its last move with a destination took it; null until then. */
  readonly position: Place | null;
  /** A critical was spent ahead of time: the next challenge it issues succeeds without a roll. */
  readonly readiedSuccess: boolean;
  /** Successes and failures of the challenges it issued this session. */
  readonly tally: SuccessTally;
  /** The tally of the session before, kept when a new session begins. */
  readonly lastSessionTally: SuccessTally | null;
  /** Its resolve in the current non-violent encounter (option nonViolentExtended = health-track); null when untouched. */
  readonly resolve: ResolveTrack | null;
}

/** A power whose duration outlasts the action that started it (personae-core-2011.txt "Duration"). */
export interface ActiveEffect {
  readonly id: number;
  readonly power: string;
  readonly owner: string;
  readonly targets: readonly string[];
  readonly duration: Duration;
  readonly grants?: AbilityEffect;
  /** Round the power was started or last kept up (Maintain powers). */
  readonly maintainedRound: number;
  readonly encounter: number | null;
}

/** An active defense declared with an action (personae-core-2011.txt "Passive vs. Active Defense"). */
export interface DeclaredDefense {
  readonly kind: 'parry' | 'block' | 'power';
  readonly skill: string;
  readonly power?: string;
  readonly round: number;
}

export interface TurnState {
  readonly actor: string;
  readonly moves: number;
  readonly actionUsed: boolean;
  /** The one special ability (not a Quality) the actor has benefited from this turn. */
  readonly ability: string | null;
}

/** A violent encounter's rounds and turns (personae-core-2011.txt "The Action Order, and Actions"). */
export interface Combat {
  readonly method: TableOptions['actionOrder'] | 'manual';
  readonly order: readonly string[];
  readonly round: number;
  /** Index into `order` of the character whose turn it is. */
  readonly index: number;
  readonly turn: TurnState;
  /** Characters who took an action or moved this round. */
  readonly actedThisRound: readonly string[];
  readonly defenses: Readonly<Record<string, DeclaredDefense>>;
  /** Assistants who declared, on their turn, that they assist a primary actor: assistant -> primary. */
  readonly assists: Readonly<Record<string, string>>;
  /** Characters whose next action is already spent (contributors to a concerted effort). */
  readonly spentAhead: readonly string[];
  /** The special ability (not a Quality) each character benefited from, by turn: id -> "round:index:ability". */
  readonly abilityUse: Readonly<Record<string, string>>;
}

export interface BankEntry {
  readonly count: number;
  readonly earned: Stamp;
}

/** The whole table at one moment: what views show and what `--json` prints. */
export interface Snapshot {
  readonly title: string;
  readonly options: TableOptions;
  readonly clock: Clock;
  /** The GM ended the session and the next has not begun: play is between sessions. */
  readonly betweenSessions: boolean;
  /** Character ids in the order they were listed (the seating order unless seats say otherwise). */
  readonly roster: readonly string[];
  readonly characters: Readonly<Record<string, CharacterState>>;
  /** The character whose action escalated the current encounter. */
  readonly escalatedBy: string | null;
  readonly combat: Combat | null;
  /** Banked criticals by owner: a character id, or "gm" for the GM's common pool. */
  readonly banks: Readonly<Record<string, readonly BankEntry[]>>;
  /** Uses counted against once-per-period limits, by key. */
  readonly usage: Readonly<Record<string, number>>;
  readonly effects: readonly ActiveEffect[];
  readonly nextEffectId: number;
  readonly lastChallenge: LastChallenge | null;
  /** A challenge a special ability makes follow at once (Taunt, Misdirection); absent or null when none. */
  readonly followUp?: FollowUp | null;
}

/** One event applied, kept so that undo can return to it. */
export interface PastNode {
  readonly sequence: number;
  /** Sequence number of the first event of the action this event belongs to. */
  readonly action: number;
  readonly now: Snapshot | null;
  readonly undoTo: number | null;
  readonly previous: PastNode | null;
}

/**
 * The decider's state: the snapshot after the last event, with what undo and redo need. Undo and
 * redo are events too; the state they restore is found in `past`, built from the events themselves.
 */
export interface EncounterState {
  readonly sequence: number;
  readonly now: Snapshot | null;
  /** Where undoing the last action leads: the sequence number before it (null: nothing to undo). */
  readonly undoTo: number | null;
  /** Sequence numbers redo returns to, the latest last. */
  readonly redo: readonly number[];
  readonly past: PastNode | null;
}

export const EMPTY_STATE: EncounterState = { sequence: 0, now: null, undoTo: null, redo: [], past: null };


export function bankTotal(entries: readonly BankEntry[] | undefined): number {
  return (entries ?? []).reduce((s, e) => s + e.count, 0);
}
