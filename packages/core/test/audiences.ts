import fc from 'fast-check';
import { expect } from 'vitest';
import { seededDice } from '@personae/dice';
import { poolDice, type Actor, type Decider } from '../src';

/**
 * Checks of a table decider's `audience`, for the rulesets' tests: for random tables played by the
 * seats below, viewers given one audience are shown equal views, and the audience is told without
 * reading what the state keeps at length (its log, its secret rolls).
 */

export const SEATS: readonly Actor[] = [
  { role: 'gm', participantId: 'gm' },
  { role: 'gm', participantId: 'gm2' },
  { role: 'player', participantId: 'p1' },
  { role: 'player', participantId: 'p2' },
  { role: 'player', participantId: 'p3' },
  // Controls nothing, ever.
  { role: 'player', participantId: 'p4' },
  { role: 'observer', participantId: 'observer' },
  // An observer under a player's id.
  { role: 'observer', participantId: 'p1' },
];
export const GM = SEATS[0]!;
/** The participants characters are given to. */
export const PLAYERS = ['p1', 'p2', 'p3'] as const;
/** The ids characters are added under. */
export const IDS = ['a', 'b', 'c', 'd', 'e'] as const;

/** One step of play: a command of kind `kind` from seat `seat`, naming characters `a` and `b`, giving one to `who` (PLAYERS.length: to no one). */
export interface Step<K extends string> {
  readonly kind: K;
  readonly seat: number;
  readonly a: (typeof IDS)[number];
  readonly b: (typeof IDS)[number];
  readonly who: (typeof PLAYERS)[number] | null;
  readonly flag: boolean;
  readonly flag2: boolean;
}

export const stepOf = <K extends string>(kinds: readonly K[]): fc.Arbitrary<Step<K>> =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    seat: fc.integer({ min: 0, max: SEATS.length - 1 }),
    a: fc.constantFrom(...IDS),
    b: fc.constantFrom(...IDS),
    who: fc.constantFrom(...PLAYERS, null),
    flag: fc.boolean(),
    flag2: fc.boolean(),
  });

/** A step of the GM (seat 0) naming character `a`, giving it to `who`, with the ruleset's two flags. */
export const gmStep = <K extends string>(kind: K, a: Step<K>['a'], who: Step<K>['who'], flag: boolean, flag2: boolean): Step<K> => ({ kind, seat: 0, a, b: 'a', who, flag, flag2 });

/** `o` with the fields `names` out of reach: reading one throws, naming it. */
export function fenced<T extends object>(o: T, names: readonly string[]): T {
  return new Proxy(o, {
    get(target, name, receiver) {
      if (typeof name === 'string' && names.includes(name)) throw new Error(`read ${name}, which is out of reach`);
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}

export function audienceChecks<S, K extends string>(decider: Decider<S, any, any>, command: (step: Step<K>) => unknown) {
  const audience = (state: S, actor: Actor) => decider.audience!(state, actor);

  /** Every two seats in one audience of `state` are shown deep-equal views (as sent: after a JSON round trip). */
  function expectSharedViewsEqual(state: S): void {
    const first = new Map<string, { actor: Actor; view: unknown }>();
    for (const actor of SEATS) {
      const key = audience(state, actor);
      const shown = JSON.parse(JSON.stringify(decider.viewState(state, actor))) as unknown;
      const earlier = first.get(key);
      if (earlier) expect(shown, `${actor.role} ${actor.participantId} shares "${key}" with ${earlier.actor.role} ${earlier.actor.participantId}`).toEqual(earlier.view);
      else first.set(key, { actor, view: shown });
    }
  }

  /**
   * Plays `steps` at a fresh table, each from its seat or, when refused there, the GM's (a refusal
   * changes nothing), calling `each` with the state after every step. Events are folded after a JSON
   * round trip, as the server stores them.
   */
  function play(steps: readonly Step<K>[], seed = 1, each: (state: S) => void = () => {}): S {
    const dice = seededDice(seed);
    let state = decider.initialState();
    for (const step of steps) {
      const parsed = decider.parseCommand(command(step));
      if (!parsed.ok) throw new Error(parsed.error.message);
      for (const actor of [SEATS[step.seat]!, GM]) {
        try {
          const events = decider.decide(state, parsed.command, { actor, dice: poolDice({}, dice), now: '2026-12-01T12:00:00.000Z', settings: { physicalDice: false } }) as unknown[];
          for (const e of events) state = decider.evolve(state, JSON.parse(JSON.stringify(e)));
          break;
        } catch (e) {
          // A refusal names its rule's code; anything else is a defect.
          if (!(e instanceof Error) || !('code' in e)) throw e;
        }
      }
      each(state);
    }
    return state;
  }

  /**
   * For random tables, after every step: seats in one audience are shown equal views, and each seat's
   * audience is the same when `withoutLog` puts what the state keeps at length out of reach.
   */
  function checkRandomTables(kinds: readonly K[], withoutLog: (state: S) => S, numRuns = 40): void {
    fc.assert(
      fc.property(fc.array(stepOf(kinds), { minLength: 1, maxLength: 24 }), fc.nat(1000), (steps, seed) => {
        play(steps, seed, (state) => {
          expectSharedViewsEqual(state);
          const blind = withoutLog(state);
          for (const actor of SEATS) expect(audience(blind, actor)).toBe(audience(state, actor));
        });
      }),
      { numRuns },
    );
  }

  /** The audience of the first seat with this participant id. */
  const audienceOf = (state: S, participantId: string) => audience(state, SEATS.find((a) => a.participantId === participantId)!);

  return { audience, audienceOf, expectSharedViewsEqual, play, checkRandomTables };
}
