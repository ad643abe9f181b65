import type { DiceSource } from '@personae/dice';

export type { DiceSource };

/** Who issues a command or looks at the table. */
export interface Actor {
  role: 'gm' | 'player' | 'observer';
  participantId: string;
}

/** A refusal that names what was wrong: `field` is a dotted path into the command when it applies. */
export interface CommandError {
  code: string;
  message: string;
  field?: string;
}

export type ParseResult<C> = { ok: true; command: C } | { ok: false; error: CommandError };

export interface DecideContext {
  actor: Actor;
  dice: DiceSource;
  /** ISO 8601 time the server accepted the command. */
  now: string;
  /** The table's settings, read-only (e.g. whether players may enter physical dice). */
  settings?: { readonly physicalDice: boolean };
}

/**
 * A game domain as a pure decider. The server knows nothing of the game: it validates the command
 * envelope, hands the command to `parseCommand` and `decide`, stores the events `decide` returns,
 * folds them with `evolve`, and sends every participant only what `redactEvent` / `viewState` let
 * them see.
 *
 * Contract:
 * - `evolve` must not mutate the state it is given (the server keeps earlier states for catch-up).
 * - Commands, events and states must survive a JSON round trip (events are stored as JSON and the
 *   server folds the round-tripped copy, so a restart rebuilds exactly the same state).
 * - `decide` refuses an illegal action by throwing a `DomainError` (or any error whose `name` is
 *   "DomainError" and that has a string `code`); it never changes `state`.
 * - `redactEvent(event, viewer, state)` receives the table state right after `event` was applied.
 */
export interface Decider<S, C, E> {
  initialState(): S;
  parseCommand(raw: unknown): ParseResult<C>;
  decide(state: S, command: C, ctx: DecideContext): E[];
  evolve(state: S, event: E): S;
  redactEvent(event: E, viewer: Actor, state: S): E | null;
  viewState(state: S, viewer: Actor): unknown;
}

/** An illegal action, refused by the domain with a stable machine-readable code. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: string;
  readonly field: string | undefined;

  constructor(code: string, message: string, field?: string) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

/** True for a `DomainError` from this module or a structurally identical one from another package. */
export function isDomainError(error: unknown): error is { code: string; message: string; field?: unknown } {
  if (error instanceof DomainError) return true;
  return (
    error instanceof Error &&
    error.name === 'DomainError' &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

/** Any decider, for code that does not care about the domain's types. */
export type AnyDecider = Decider<any, any, any>;
