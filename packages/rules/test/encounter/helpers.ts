import { formatCitation, poolDice, type PoolDice } from '@personae/core';
import type { z } from 'zod';
import { deciderSpecification } from '@personae/core/specification';
import { expect } from 'vitest';
import { givenDice, seededDice, type DiceSource } from '@personae/dice';
import {
  RuleError,
  EMPTY_STATE,
  EncounterCommandSchema,
  RecordedDiceSchema,
  recordedPools,
  decide,
  evolve,
  execute,
  type CombatantInput,
  type EncounterCommand,
  type EncounterCommandInput,
  type EncounterEvent,
  type EncounterState,
  type Snapshot,
  type TableOptions,
} from '../../src/index';

/** Aldric, a swordsman (1 + Stature 3 = 4 hits before Injured). */
export const ALDRIC: CombatantInput = {
  id: 'aldric',
  name: 'Aldric',
  attributes: { competence: 3, prowess: 3, cunning: 2, power: 1, knowledge: 2, stature: 3 },
  skills: [
    { name: 'Longsword', dice: 3, attribute: 'stature', weapon: 'Longsword' },
    { name: 'Persuade', dice: 2, attribute: 'competence' },
  ],
  weapons: [{ name: 'Longsword', size: 'one-handed' }],
};

/** The cultist: 3 hits before Injured (Stature 2), the document's own example of the rollover rule. */
export const CULTIST: CombatantInput = {
  id: 'cultist',
  name: 'Cultist',
  role: 'adversary',
  attributes: { competence: 2, prowess: 2, cunning: 2, power: 2, knowledge: 1, stature: 2 },
  skills: [
    { name: 'Dagger', dice: 2, attribute: 'stature', weapon: 'Dagger' },
    { name: 'Magic', dice: 3, attribute: 'power' },
  ],
  weapons: [{ name: 'Dagger', size: 'small' }],
  powers: [{ name: 'Fireball', skill: 'Magic', kind: 'harm', hits: 1 }],
};

/** Brenna, a mage with a shield. */
export const BRENNA: CombatantInput = {
  id: 'brenna',
  name: 'Brenna',
  attributes: { competence: 2, prowess: 2, cunning: 3, power: 4, knowledge: 3, stature: 1 },
  skills: [
    { name: 'Magic', dice: 3, attribute: 'power' },
    { name: 'Shield', dice: 2, attribute: 'stature', shield: 'Buckler' },
  ],
  shields: [{ name: 'Buckler', weight: 'light' }],
  powers: [
    { name: 'Fireball', skill: 'Magic', kind: 'harm', hits: 1 },
    { name: 'Mend', skill: 'Magic', kind: 'heal', heals: { hits: 2, statuses: 0 } },
  ],
};

export const none = givenDice([]);

/** A command written as scenario files write it: with the dice rolled at the table beside it. */
export type Recorded<C> = C & z.input<typeof RecordedDiceSchema>;

/** The command, and the source that rolls its named pools: the recorded dice, then `dice`. */
export function withRecordedDice(command: Recorded<EncounterCommandInput>, dice: DiceSource | readonly number[]): { parsed: EncounterCommand; source: PoolDice } {
  const { command: rest, pools } = recordedPools(command as Record<string, unknown>);
  const host = Array.isArray(dice) ? givenDice(dice as number[]) : (dice as DiceSource);
  return { parsed: EncounterCommandSchema.parse(rest), source: poolDice(pools, host) };
}


/** A table under test: runs commands, keeps the log, and checks refusals leave the state alone. */
export class Table {
  state: EncounterState = EMPTY_STATE;
  log: EncounterEvent[] = [];

  constructor(characters: CombatantInput[] = [ALDRIC, CULTIST], options: Partial<TableOptions> = {}, preset: 'core-2011' | 'srd-v4' = 'core-2011') {
    this.run({ type: 'set-up', actor: 'gm', title: 'test', options: { preset, options }, characters });
  }

  get now(): Snapshot {
    return this.state.now!;
  }

  /** Runs a command; dice recorded beside it (`dice`, `targetDice`, `orderDice`) fill its named pools. */
  run(command: Recorded<EncounterCommandInput>, dice: DiceSource | readonly number[] = none): EncounterEvent[] {
    const { parsed, source } = withRecordedDice(command, dice);
    const out = execute(this.state, parsed, source);
    this.state = out.state;
    this.log.push(...out.events);
    return out.events;
  }

  /** Run a command the rules must refuse; the state must not change. */
  refuse(command: Recorded<EncounterCommandInput>, code: string, ruleText?: RegExp, dice: DiceSource | readonly number[] = seededDice(1)): RuleError {
    const before = this.state;
    let error: unknown;
    try {
      this.run(command, dice);
    } catch (e) {
      error = e;
    }
    expect(error, `expected ${JSON.stringify(command)} to be refused`).toBeInstanceOf(RuleError);
    const d = error as RuleError;
    expect(d.code).toBe(code);
    if (ruleText) expect(d.rule ? formatCitation(d.rule) : '').toMatch(ruleText);
    expect(this.state).toBe(before);
    return d;
  }

  character(id: string) {
    return this.now.characters[id]!;
  }

  /** Escalate straight to violence, taking each step. */
  toViolence(by = 'aldric', extra: Partial<Recorded<Extract<EncounterCommandInput, { type: 'escalate' }>>> = {}, dice: DiceSource | readonly number[] = none): void {
    const steps = this.now.options.escalation === 'srd-v4' ? (['non-violent', 'hostile', 'violent'] as const) : (['non-violent', 'violent'] as const);
    for (const to of steps) this.run({ type: 'escalate', actor: by, to, ...(to === 'violent' ? extra : {}) }, to === 'violent' ? dice : none);
  }

  endTurn(): void {
    this.run({ type: 'end-turn', actor: this.now.combat!.turn.actor });
  }

  /** End turns until it is `id`'s turn. */
  turnOf(id: string): void {
    for (let i = 0; i < 50 && this.now.combat!.turn.actor !== id; i++) this.endTurn();
    expect(this.now.combat!.turn.actor).toBe(id);
  }

  events<T extends EncounterEvent['type']>(type: T): Extract<EncounterEvent, { type: T }>[] {
    return this.log.filter((e): e is Extract<EncounterEvent, { type: T }> => e.type === type);
  }
}

/** The encounter's decider under core's specification: a command is decided with the dice it is given. */
const encounterSpecification = deciderSpecification<EncounterState, { command: Recorded<EncounterCommandInput>; dice: DiceSource }, EncounterEvent>({
  initialState: () => EMPTY_STATE,
  evolve,
  decide: (state, { command, dice }) => {
    const { parsed, source } = withRecordedDice(command, dice);
    return decide(state, parsed, source);
  },
});

/**
 * A specification in three steps, as a decider is described: given the events so far, when a
 * command is decided, then these events follow (each matched as a partial object, in order) or the
 * command is refused with this code, leaving the state as it was.
 */
export function given(events: readonly EncounterEvent[]) {
  const spec = encounterSpecification(...events);
  return {
    /** The state the given events fold into. */
    state: spec.state,
    when(command: Recorded<EncounterCommandInput>, dice: DiceSource | readonly number[] = none) {
      const decided = spec.when({ command, dice: Array.isArray(dice) ? givenDice(dice as number[]) : (dice as DiceSource) });
      return {
        then(expected: readonly Partial<Record<string, unknown>>[], after?: (state: EncounterState) => void): EncounterEvent[] {
          return decided.then((out, state) => {
            expect(out.map((e) => e.type)).toEqual(expected.map((e) => e.type ?? expect.any(String)));
            expect(out).toMatchObject(expected);
            after?.(state);
          });
        },
        thenRefused(code: string, ruleText?: RegExp): RuleError {
          return decided.thenRefuses(code, (e) => {
            if (ruleText) expect(e.rule ? formatCitation(e.rule) : '').toMatch(ruleText);
          });
        },
      };
    },
  };
}
