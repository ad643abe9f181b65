import type { DiceSource } from '@personae/dice';
import type { CommandError } from './errors';

export type { DiceSource };

/** Who issues a command or looks at the table: the one notion of a viewer every layer shares. */
export interface Actor {
  readonly role: 'gm' | 'player' | 'observer';
  readonly participantId: string;
}

export type Viewer = Actor;

/** The GM playing alone: the actor offline runs (scenarios, labs, matchups, duels) decide commands as. */
export const OFFLINE_GM: Actor = Object.freeze({ role: 'gm', participantId: 'gm' });

/** The fixed time offline runs decide at, so that the same commands and dice give the same events. */
export const OFFLINE_NOW = '1970-01-01T00:00:00.000Z';

export type ParseResult<C> = { ok: true; command: C } | { ok: false; error: CommandError };

/** A table's settings the host passes to `decide`, read-only. */
export interface HostSettings {
  /** Whether participants may type in the results of physical dice. */
  readonly physicalDice: boolean;
}

export interface DecideContext {
  readonly actor: Actor;
  /** The one way dice enter a decision: seeded, cryptographic, or typed in and checked by the host. */
  readonly dice: DiceSource;
  /** ISO 8601 time the host accepted the command. */
  readonly now: string;
  readonly settings?: HostSettings;
  /** Ids of the participants at the table now, so that a command naming anyone else is refused. */
  readonly participants?: ReadonlySet<string>;
  /** Bounds the host sets on how much one table holds; a domain refuses a command that would pass one. */
  readonly limits?: HostLimits;
}

/** How much one table may hold, set by whoever runs the host. Absent: no bound. */
export interface HostLimits {
  /** Characters at one table, whoever plays them. */
  readonly maxCharacters?: number;
  /** Characters one player owns at one table. */
  readonly maxCharactersPerPlayer?: number;
}

/**
 * A game domain as a pure decider. The host knows nothing of the game: it validates the command
 * envelope, hands the command to `parseCommand` and `decide`, stores the events `decide` returns,
 * folds them with `evolve`, and sends every participant only what `redactEvent` / `viewState` let
 * them see.
 *
 * Contract:
 * - `evolve` must not mutate the state it is given (the host keeps earlier states for catch-up).
 * - Commands, events and states survive a JSON round trip (events are stored as JSON and the host
 *   folds the round-tripped copy, so a restart rebuilds exactly the same state).
 * - `decide` refuses an illegal action by throwing a `RuleError`; it never changes `state`.
 * - `redactEvent(event, viewer, state)` receives the state right after `event` was applied; it
 *   returns what that viewer may see of the event, or null.
 * - `validateEvent`, when present, refuses an event that cannot come from `decide` (used on import).
 */
export interface Decider<S, C, E, V = E> {
  initialState(): S;
  parseCommand(raw: unknown): ParseResult<C>;
  decide(state: S, command: C, ctx: DecideContext): E[];
  evolve(state: S, event: E): S;
  /** `V`: an event as a viewer other than the GM may receive it, when its type says less than `E` (numbers left out, say). */
  redactEvent(event: E, viewer: Actor, state: S): E | V | null;
  viewState(state: S, viewer: Actor): unknown;
  /**
   * Which viewers see the same view of `state`: viewers for whom this returns the same text get equal
   * views (`viewState` of one deep-equals `viewState` of the other), so the host builds that view once
   * and sends all of them one serialization of its changes. It must tell apart every two viewers whose
   * views differ in anything, hidden information above all; when unsure, a viewer is its own audience.
   * Absent: every role and participant is an audience of its own.
   */
  audience?(state: S, viewer: Actor): string;
  validateEvent?(raw: unknown): { ok: true; event: E } | { ok: false; error: CommandError };
  /**
   * What a viewer may do with a character's portrait (an image the host keeps beside the events):
   * 'edit' (set or remove it), 'see', or null (no such character, or hidden from the viewer).
   * Absent: the domain's characters have no portraits.
   */
  characterAccess?(state: S, characterId: string, viewer: Actor): 'edit' | 'see' | null;
}

/** Any decider, for code that does not care about the domain's types. */
export type AnyDecider = Decider<any, any, any>;
