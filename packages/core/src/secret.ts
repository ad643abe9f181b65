import { commitRoll, newSalt, verifyRoll } from './commitment';
import type { Actor, DecideContext, Decider, ParseResult } from './decider';
import { RuleError } from './errors';
import { faceFit, type FaceFit, type OutcomeFit } from './fairness';
import { isPoolDice, type EnteredPools } from './pools';
import { requireSeen } from './undo';

/**
 * Provably fair secret rolls and the fairness check of typed dice, for every ruleset: the pieces the
 * Personae table and the ruleset tables share (the reveal's check, the tallies of typed dice), and
 * `withSecretRolls`, which gives a ruleset's table decider both.
 *
 * A roll made in secret is sealed: the table publishes at once, to every viewer, a commitment to its
 * dice (commitRoll: the SHA-256 of a random salt and the dice), and keeps the salt and the dice for the
 * GM. When it is revealed, by the GM or by the table at a moment the GM chose, the dice and the salt
 * are published with what was rolled, and anyone recomputes the hash.
 */

/** What a revealed roll publishes besides what was rolled. */
export interface RevealedSecret {
  readonly hash: string;
  readonly salt: string;
  readonly dice: readonly number[];
  /** The log entry that published the commitment (absent in logs that do not say). */
  readonly committedAt?: number;
}

export type RevealCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * Whether a revealed roll is the one committed to: the revealed dice and salt hash to the commitment
 * published before, and (when `shown` is given) they are the dice that what was revealed records.
 */
export function checkRevealedDice(commitment: string, reveal: RevealedSecret, shown: readonly number[] | undefined): RevealCheck {
  if (reveal.hash.toLowerCase() !== commitment.toLowerCase()) return { ok: false, message: `the reveal names commitment ${reveal.hash}, not ${commitment}` };
  const v = verifyRoll({ hash: commitment }, { dice: reveal.dice, salt: reveal.salt });
  if (!v.ok) return { ok: false, message: v.message };
  if (shown && shown.join(',') !== reveal.dice.join(',')) {
    return { ok: false, message: `the result shows the dice ${shown.join(', ')}, but the dice committed to are ${reveal.dice.join(', ')}` };
  }
  return { ok: true };
}

/** The log line that publishes a commitment says when the roll will be revealed. */
export function revealLine(when: string): string {
  return when === 'gm' ? 'the GM reveals it later' : `it is revealed at the end of the ${when}`;
}

/** Who issued the command that rolled in secret, as the viewer knows them (null: the commitment does not say). */
export type SecretRoller = { readonly gm: true } | { readonly gm: false; readonly name: string } | null;

/**
 * The words that open a commitment's line: who rolled, as the commitment knows it, and when the roll
 * is revealed. The GM rolls on their own command; on a player's, the table rolls for a character
 * hidden from the players as the rules call for it. Nothing of what was rolled is said.
 */
export function commitmentOpening(roller: SecretRoller, when: string): string {
  const who = roller === null ? 'The table rolls in secret' : roller.gm ? 'The GM rolls in secret' : `On ${roller.name}'s command, the table rolls in secret`;
  return `${who}; ${revealLine(when)}`;
}

/**
 * The dice an event records, in the order they appear in it: every whole number from 1 under a field
 * named in `fields` (a number, a list, or an object or list searched further), wherever it is nested.
 * Fields such as a d20 a viewer is not shown (written 0) or not rolled (null) give nothing.
 */
export function recordedDice(value: unknown, fields: ReadonlySet<string>): number[] {
  const out: number[] = [];
  const walk = (v: unknown, counted: boolean): void => {
    if (typeof v === 'number') {
      if (counted && Number.isSafeInteger(v) && v >= 1) out.push(v);
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x, counted);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, counted || fields.has(k));
    }
  };
  walk(value, false);
  return out;
}

/** A revealed roll as a viewer who was not shown it reads it: its dice and outcome (see withheldRoll). */
export interface WithheldRoll {
  readonly type: 'withheld-roll';
  /** The event's structure down to its dice and outcomes: numbers under the fields that hold dice, and success, hit and won. */
  readonly shown: unknown;
}

/** The outcomes a reveal shows with the dice. */
const OUTCOME_KEYS: ReadonlySet<string> = new Set(['success', 'hit', 'won']);

export function isWithheldRoll(value: unknown): value is WithheldRoll {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'withheld-roll';
}

/**
 * What a reveal shows a player of a roll they were not shown (a hidden character's): built from the
 * event, it keeps the numbers under the fields that hold dice (`fields`, the ones the ruleset's diceOf
 * reads, at the same places, so the reveal still checks against the commitment) and the outcomes
 * (success, hit, won), and no name, id, label, score or modifier.
 */
export function withheldRoll(event: unknown, fields: ReadonlySet<string>): WithheldRoll {
  const keep = (v: unknown, counted: boolean): unknown => {
    if (typeof v === 'number') return counted ? v : undefined;
    if (Array.isArray(v)) {
      const out = v.map((x) => keep(x, counted)).filter((x) => x !== undefined);
      return out.length > 0 ? out : undefined;
    }
    if (v === null || typeof v !== 'object') return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const kept = typeof x === 'boolean' ? (OUTCOME_KEYS.has(k) ? x : undefined) : keep(x, counted || fields.has(k));
      if (kept !== undefined) out[k] = kept;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  return { type: 'withheld-roll', shown: keep(event, false) ?? {} };
}

/** A withheld roll in words: its dice, and its outcomes. */
export function describeWithheld(roll: WithheldRoll, diceOf: (event: WithheldRoll) => number[]): string {
  const outcomes: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'boolean') outcomes.push(`${k}: ${x ? 'yes' : 'no'}`);
        else walk(x);
      }
    }
  };
  walk(roll.shown);
  const dice = diceOf(roll);
  return `A roll players were not shown: ${dice.length > 0 ? `dice ${dice.join(', ')}` : 'no dice'}${outcomes.length > 0 ? ` (${outcomes.join(', ')})` : ''}.`;
}

// ---------------------------------------------------------------------------------------------
// The fairness check of typed dice.

/**
 * Running sums of one participant's typed dice: the faces of the die tested, and the outcomes of the
 * rolls they typed dice in for, with the exact chances those had.
 */
export interface DiceTally {
  /** Count of each face, index 0 for face 1 (as many entries as the die tested has faces). */
  readonly faces: readonly number[];
  readonly challenges: number;
  readonly successes: number;
  /** Sum of the exact chances of success, and of their variances. */
  readonly expected: number;
  readonly variance: number;
}

export interface FairnessRow {
  readonly participantId: string;
  readonly faces: FaceFit;
  readonly outcomes: OutcomeFit;
}

/** One roll a participant typed dice in for: its exact chance of success, and whether it succeeded. */
export interface TypedOutcome {
  readonly chance: number;
  readonly succeeded: boolean;
}

export function emptyTally(sides: number): DiceTally {
  return { faces: new Array<number>(sides).fill(0), challenges: 0, successes: 0, expected: 0, variance: 0 };
}

/** `tally` with more faces (1 to the die's sides; others are not counted) and more outcomes. */
export function addToTally(tally: DiceTally, faces: readonly number[], outcomes: readonly TypedOutcome[]): DiceTally {
  const counts = [...tally.faces];
  for (const f of faces) if (Number.isInteger(f) && f >= 1 && f <= counts.length) counts[f - 1]!++;
  let { challenges, successes, expected, variance } = tally;
  for (const o of outcomes) {
    if (!(o.chance >= 0 && o.chance <= 1)) continue;
    challenges++;
    if (o.succeeded) successes++;
    expected += o.chance;
    variance += o.chance * (1 - o.chance);
  }
  return { faces: counts, challenges, successes, expected, variance };
}

/** The tests for each participant who typed dice in, most dice first (faceFit at `significance`, and the z-score). */
export function fairnessRows(tallies: Readonly<Record<string, DiceTally>>, significance = 0.01): FairnessRow[] {
  return Object.entries(tallies)
    .map(([participantId, t]) => {
      const faces = t.faces.flatMap((n, i) => new Array<number>(n).fill(i + 1));
      const z = t.variance > 0 ? (t.successes - t.expected) / Math.sqrt(t.variance) : 0;
      const outcomes: OutcomeFit = { challenges: t.challenges, successes: t.successes, expected: t.expected, z };
      return { participantId, faces: faceFit(faces, t.faces.length, significance), outcomes };
    })
    .sort((a, b) => b.faces.dice - a.faces.dice);
}

// ---------------------------------------------------------------------------------------------
// A ruleset's table with secret rolls and the fairness check.

/** What a ruleset tells `withSecretRolls` about its events and dice. */
export interface SecretRollRules<S, C, E, V = E> {
  /** The dice an event records, in order: what a commitment binds (of a redacted one, those it still shows). */
  diceOf(event: E | V): number[];
  /** The fields of events that hold dice, which diceOf reads (what a reveal shows players of a withheld roll: withheldRoll). */
  readonly diceFields: ReadonlySet<string>;
  /**
   * The moments at which the table may reveal every sealed roll, besides the GM's word: each name (a
   * Round, a rest, ...) with the events that end one. The GM picks one with `secret-reveal`.
   */
  readonly ends: Readonly<Record<string, (event: E) => boolean>>;
  /** The fairness check of typed dice; absent: none. */
  readonly typed?: {
    /** Faces of the die tested. */
    readonly sides: number;
    /** The faces of that die in the pools a command's issuer typed in. */
    faces(entered: EnteredPools, command: C, before: S, actor: Actor): number[];
    /** The rolls they typed dice in for, with their exact chances, from the events the command made. */
    outcomes(events: readonly E[], before: S, entered: EnteredPools): TypedOutcome[];
  };
}

/** A roll waiting to be revealed, as the table keeps it (never sent to anyone but the GM). */
export interface SealedRolls<E> {
  readonly hash: string;
  readonly salt: string;
  readonly dice: readonly number[];
  /** What was rolled: the events whose dice players were not shown. */
  readonly rolls: readonly E[];
  readonly committedAt: number;
}

/** What the secret-roll layer adds to a ruleset's events. */
export type SecretRollEvent<E> =
  /** A commitment: everyone reads `hash` and `by` (the participant whose command rolled); `salt`, `dice` and `rolls` are the GM's. */
  | { readonly type: 'roll-committed'; readonly hash: string; readonly reveal: string; readonly by?: string; readonly salt?: string; readonly dice?: readonly number[]; readonly rolls?: readonly E[] }
  /** A reveal: the GM reads `rolls` as they were rolled; everyone else, each as a withheld roll (its dice and outcome). */
  | { readonly type: 'roll-revealed'; readonly hash: string; readonly salt: string; readonly dice: readonly number[]; readonly committedAt: number; readonly when: string; readonly rolls: readonly (E | WithheldRoll)[] }
  | { readonly type: 'secret-reveal-set'; readonly reveal: string }
  /** A participant's typed dice added to their tally (the GM's only). */
  | { readonly type: 'dice-tallied'; readonly by: string; readonly faces: readonly number[]; readonly outcomes: readonly TypedOutcome[] };

export type SecretRollCommand = { readonly type: 'reveal-roll'; readonly hash?: string } | { readonly type: 'secret-reveal'; readonly reveal: string };

const SECRET_EVENTS: ReadonlySet<string> = new Set(['roll-committed', 'roll-revealed', 'secret-reveal-set', 'dice-tallied']);

/** Whether an event of a ruleset table is one of the secret-roll layer's (code that folds a ruleset's own events skips them). */
export function isSecretRollEvent(event: unknown): event is SecretRollEvent<unknown> {
  return typeof event === 'object' && event !== null && SECRET_EVENTS.has(String((event as { type?: unknown }).type));
}

const HASH = /^[0-9a-f]{64}$/;
const diceList = (v: unknown) => Array.isArray(v) && v.every((d) => Number.isSafeInteger(d) && (d as number) >= 1);

/** Refuses an imported event of this layer that `decide` could not have made (its shape, not its history). */
function validSecretEvent<E>(raw: SecretRollEvent<unknown>): { ok: true; event: SecretRollEvent<E> } | { ok: false; error: { code: string; message: string; field: string } } {
  const e = raw as Record<string, unknown>;
  const bad = (field: string, what: string) => ({ ok: false as const, error: { code: 'bad-event', message: `${raw.type}: ${field} ${what}`, field } });
  if ((e.type === 'roll-committed' || e.type === 'roll-revealed') && !(typeof e.hash === 'string' && HASH.test(e.hash))) return bad('hash', 'is not a commitment (64 lower-case hex digits)');
  if (e.type === 'roll-revealed' && (!diceList(e.dice) || typeof e.salt !== 'string' || !Number.isSafeInteger(e.committedAt) || !Array.isArray(e.rolls))) return bad('dice', 'salt, committedAt or rolls are missing or malformed');
  if (e.type === 'dice-tallied' && (typeof e.by !== 'string' || !diceList(e.faces) || !Array.isArray(e.outcomes))) return bad('faces', 'by, faces or outcomes are missing or malformed');
  if ((e.type === 'secret-reveal-set' || e.type === 'roll-committed') && typeof e.reveal !== 'string') return bad('reveal', 'is missing');
  if (e.type === 'roll-committed' && e.by !== undefined && typeof e.by !== 'string') return bad('by', 'is not a participant id');
  return { ok: true, event: raw as SecretRollEvent<E> };
}

/** One entry of the secret rolls' log, as every viewer reads it. */
export type SecretLogEntry<E> =
  | { readonly kind: 'committed'; readonly seq: number; readonly hash: string; readonly reveal: string; readonly by?: string }
  | ({ readonly kind: 'revealed'; readonly seq: number; readonly when: string; readonly rolls: readonly (E | WithheldRoll)[] } & Required<RevealedSecret>);

export interface SecretTableState<S, E> {
  /** The ruleset's own state. */
  readonly game: S;
  /** Events folded: the table's version. */
  readonly seq: number;
  /** How many of them are this layer's (the ruleset's own version is the difference). */
  readonly own: number;
  readonly reveal: string;
  readonly sealed: readonly SealedRolls<E>[];
  /** Commitments and reveals, newest last (at most SECRET_LOG_KEPT). */
  readonly log: readonly SecretLogEntry<E>[];
  readonly tallies: Readonly<Record<string, DiceTally>>;
}

/** What a view of a ruleset table carries of secret rolls and of the fairness check. */
export interface SecretRollsView<E> {
  readonly secretRolls: {
    readonly reveal: string;
    /** 'gm' and the moments the ruleset names. */
    readonly choices: readonly string[];
    /** The rolls still sealed (the GM's view only; empty for everyone else). */
    readonly sealed: readonly { readonly hash: string; readonly committedAt: number }[];
    readonly log: readonly SecretLogEntry<E>[];
  };
  /** The GM's only: null in everyone else's view. */
  readonly diceFairness: readonly FairnessRow[] | null;
}

export const SECRET_LOG_KEPT = 200;

/** A viewer who plays no character: what every player is shown at least. */
const ANY_PLAYER: Actor = { role: 'player', participantId: '' };

const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * A ruleset's table decider with provably fair secret rolls and the fairness check of typed dice.
 *
 * - The dice of a command's events that a player who plays none of the characters would not be shown
 *   (a hidden GM character's attack or test, its initiative) are sealed: a `roll-committed` event
 *   follows the command's events and publishes the commitment to everyone; its salt, dice and the
 *   events rolled are the GM's.
 * - `{"type":"reveal-roll","hash":...}` (or without `hash`, every sealed roll) reveals, GM only;
 *   `{"type":"secret-reveal","reveal":"gm"|MOMENT}` has the table reveal them all at each such moment.
 * - Pools a participant typed in add to their tally (a `dice-tallied` event, the GM's only); the GM's
 *   view carries the tests, everyone else's null.
 *
 * The ruleset's own events are folded by its decider as before; undo and redo name the table's version
 * (`seen`), which counts this layer's events too, and are handed the ruleset's own.
 */
export function withSecretRolls<S, C, E, V = E>(inner: Decider<S, C, E, V>, rules: SecretRollRules<S, C, E, V>): Decider<SecretTableState<S, E>, C | SecretRollCommand, E | SecretRollEvent<E>, V | SecretRollEvent<E>> {
  const choices = ['gm', ...Object.keys(rules.ends)];
  const revealed = (s: SealedRolls<E>, when: string): SecretRollEvent<E> => ({ type: 'roll-revealed', hash: s.hash, salt: s.salt, dice: s.dice, committedAt: s.committedAt, when, rolls: s.rolls });

  function parseCommand(raw: unknown): ParseResult<C | SecretRollCommand> {
    const r = raw as Record<string, unknown> | null;
    if (r && typeof r === 'object' && (r.type === 'reveal-roll' || r.type === 'secret-reveal')) {
      const extra = Object.keys(r).find((k) => k !== 'type' && k !== (r.type === 'reveal-roll' ? 'hash' : 'reveal'));
      if (extra) return { ok: false, error: { code: 'bad-command', message: `${extra}: ${r.type} takes no field "${extra}"`, field: extra } };
      if (r.type === 'reveal-roll') {
        if (r.hash !== undefined && (typeof r.hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(r.hash))) {
          return { ok: false, error: { code: 'bad-command', message: `hash: ${JSON.stringify(r.hash)} is not a commitment (64 hex digits)`, field: 'hash' } };
        }
        return { ok: true, command: { type: 'reveal-roll', ...(typeof r.hash === 'string' ? { hash: r.hash.toLowerCase() } : {}) } };
      }
      if (typeof r.reveal !== 'string' || !choices.includes(r.reveal)) {
        return { ok: false, error: { code: 'bad-command', message: `reveal: ${JSON.stringify(r.reveal)} is not a moment this table reveals secret rolls at; choose one of ${choices.join(', ')}`, field: 'reveal' } };
      }
      return { ok: true, command: { type: 'secret-reveal', reveal: r.reveal } };
    }
    return inner.parseCommand(raw);
  }

  function decide(state: SecretTableState<S, E>, command: C | SecretRollCommand, ctx: DecideContext): (E | SecretRollEvent<E>)[] {
    const c = command as { type?: unknown; seen?: unknown; hash?: string; reveal?: string };
    if (c.type === 'reveal-roll' || c.type === 'secret-reveal') {
      if (ctx.actor.role !== 'gm') throw new RuleError('gm-only', c.type === 'reveal-roll' ? 'only the GM may reveal a secret roll' : 'only the GM chooses when secret rolls are revealed', 'type');
      if (c.type === 'secret-reveal') return [{ type: 'secret-reveal-set', reveal: c.reveal! }];
      if (c.hash === undefined) {
        if (state.sealed.length === 0) throw new RuleError('nothing-sealed', 'there is no secret roll left to reveal', 'hash');
        return state.sealed.map((s) => revealed(s, 'gm'));
      }
      const one = state.sealed.find((s) => s.hash === c.hash);
      if (!one) throw new RuleError('unknown-commitment', `hash: there is no unrevealed secret roll with commitment ${c.hash}`, 'hash');
      return [revealed(one, 'gm')];
    }
    let cmd = command as C;
    if (typeof c.seen === 'number' && (c.type === 'undo' || c.type === 'redo')) {
      // The issuer names the table's version; the ruleset counts its own events only.
      requireSeen(state.seq, c.seen, c.type);
      cmd = { ...(command as object), seen: state.seq - state.own } as C;
    }
    const events = inner.decide(state.game, cmd, ctx);
    const out: (E | SecretRollEvent<E>)[] = [...events];
    // Which dice would a player who plays none of the characters not be shown?
    let game = state.game;
    const rolls: E[] = [];
    const dice: number[] = [];
    let ended = false;
    const end = state.reveal === 'gm' ? undefined : rules.ends[state.reveal];
    for (const e of events) {
      game = inner.evolve(game, e);
      const all = rules.diceOf(e);
      if (end?.(e)) ended = true;
      if (all.length === 0) continue;
      const seen = inner.redactEvent(e, ANY_PLAYER, game);
      if ((seen === null ? [] : rules.diceOf(seen)).join(',') === all.join(',')) continue;
      rolls.push(e);
      dice.push(...all);
    }
    const fresh: SealedRolls<E>[] = [];
    if (rolls.length) {
      const salt = newSalt();
      const hash = commitRoll({ dice, salt }).hash;
      out.push({ type: 'roll-committed', hash, reveal: state.reveal, by: ctx.actor.participantId, salt, dice, rolls });
      fresh.push({ hash, salt, dice, rolls, committedAt: state.seq + out.length });
    }
    const entered = isPoolDice(ctx.dice) ? ctx.dice.entered : {};
    if (rules.typed && Object.keys(entered).length) {
      const faces = rules.typed.faces(entered, cmd, state.game, ctx.actor);
      const outcomes = rules.typed.outcomes(events, state.game, entered);
      if (faces.length || outcomes.length) out.push({ type: 'dice-tallied', by: ctx.actor.participantId, faces, outcomes });
    }
    if (ended) out.push(...[...state.sealed, ...fresh].map((s) => revealed(s, state.reveal)));
    return out;
  }

  function evolve(state: SecretTableState<S, E>, event: E | SecretRollEvent<E>): SecretTableState<S, E> {
    const seq = state.seq + 1;
    if (!isSecretRollEvent(event)) return { ...state, seq, game: inner.evolve(state.game, event as E) };
    const next = { ...state, seq, own: state.own + 1 };
    const logged = (entry: SecretLogEntry<E>) => [...state.log, entry].slice(-SECRET_LOG_KEPT);
    const e = event as SecretRollEvent<E>;
    switch (e.type) {
      case 'roll-committed':
        return {
          ...next,
          sealed: e.salt !== undefined ? [...state.sealed, { hash: e.hash, salt: e.salt, dice: e.dice ?? [], rolls: e.rolls ?? [], committedAt: seq }] : state.sealed,
          log: logged({ kind: 'committed', seq, hash: e.hash, reveal: e.reveal, ...(e.by !== undefined ? { by: e.by } : {}) }),
        };
      case 'roll-revealed':
        return {
          ...next,
          sealed: state.sealed.filter((s) => s.hash !== e.hash),
          log: logged({ kind: 'revealed', seq, hash: e.hash, salt: e.salt, dice: e.dice, committedAt: e.committedAt, when: e.when, rolls: e.rolls }),
        };
      case 'secret-reveal-set':
        return { ...next, reveal: e.reveal };
      case 'dice-tallied': {
        const before = hasOwn(state.tallies, e.by) ? state.tallies[e.by]! : emptyTally(rules.typed?.sides ?? 10);
        return { ...next, tallies: { ...state.tallies, [e.by]: addToTally(before, e.faces, e.outcomes) } };
      }
    }
  }

  function redactEvent(event: E | SecretRollEvent<E>, viewer: Actor, state: SecretTableState<S, E>): E | V | SecretRollEvent<E> | null {
    if (!isSecretRollEvent(event)) return inner.redactEvent(event as E, viewer, state.game);
    if (viewer.role === 'gm') return event;
    const e = event as SecretRollEvent<E>;
    if (e.type === 'dice-tallied') return null;
    if (e.type === 'roll-committed') return { type: 'roll-committed', hash: e.hash, reveal: e.reveal, ...(e.by !== undefined ? { by: e.by } : {}) };
    if (e.type === 'roll-revealed') return { type: 'roll-revealed', hash: e.hash, salt: e.salt, dice: e.dice, committedAt: e.committedAt, when: e.when, rolls: withheld(e.rolls) };
    return e;
  }

  /** The rolls a reveal shows players: each sealed roll was one a player who plays none of the characters is not shown. */
  const withheld = (rolls: readonly (E | WithheldRoll)[]) => rolls.map((r) => (isWithheldRoll(r) ? r : withheldRoll(r, rules.diceFields)));
  /** The log's reveals as players read them, built once per entry (log entries never change). */
  const shownToPlayers = new WeakMap<SecretLogEntry<E>, SecretLogEntry<E>>();
  const playerEntry = (entry: SecretLogEntry<E>): SecretLogEntry<E> => {
    if (entry.kind !== 'revealed') return entry;
    let shown = shownToPlayers.get(entry);
    if (!shown) shownToPlayers.set(entry, (shown = { ...entry, rolls: withheld(entry.rolls) }));
    return shown;
  };

  function viewState(state: SecretTableState<S, E>, viewer: Actor): unknown {
    const gm = viewer.role === 'gm';
    const own: SecretRollsView<E> = {
      secretRolls: { reveal: state.reveal, choices, sealed: gm ? state.sealed.map((s) => ({ hash: s.hash, committedAt: s.committedAt })) : [], log: gm ? state.log : state.log.map(playerEntry) },
      diceFairness: gm ? fairnessRows(state.tallies) : null,
    };
    return { ...(inner.viewState(state.game, viewer) as object), ...own };
  }

  // What this layer adds to a view differs between the GM and everyone else only.
  const audience = inner.audience && ((state: SecretTableState<S, E>, viewer: Actor) => `${viewer.role === 'gm' ? 'gm' : 'table'}:${inner.audience!(state.game, viewer)}`);

  return {
    initialState: () => ({ game: inner.initialState(), seq: 0, own: 0, reveal: 'gm', sealed: [], log: [], tallies: {} }),
    parseCommand,
    decide,
    evolve,
    redactEvent,
    viewState,
    ...(audience ? { audience } : {}),
    ...(inner.validateEvent
      ? {
          validateEvent: (raw: unknown) => (isSecretRollEvent(raw) ? validSecretEvent<E>(raw) : inner.validateEvent!(raw)),
        }
      : {}),
    ...(inner.characterAccess ? { characterAccess: (state: SecretTableState<S, E>, id: string, viewer: Actor) => inner.characterAccess!(state.game, id, viewer) } : {}),
  };
}
