import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededDice } from '@personae/dice';
import {
  decide,
  RuleError,
  effectiveEvents,
  EMPTY_STATE,
  EncounterCommandSchema,
  evolve,
  replay,
  requiredIssuer,
  type EncounterCommandInput,
  type EncounterEvent,
  type EncounterState,
} from '../../src/index';
import { ALDRIC, BRENNA, CULTIST, Table } from './helpers';

describe('the event log', () => {
  it('every event records the dice it used; replaying the events never rolls', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist' }, seededDice(11));
    const c = t.events('challenge-resolved')[0]!;
    expect(c.result.actor.roll.rolled).toHaveLength(3);
    expect(c.result.explanation.length).toBeGreaterThan(3);
    // evolve takes no dice at all: the replayed state equals the live one.
    expect(replay(t.log).now).toEqual(t.now);
  });

  it('undo of the last action is an event; the log stays append-only; redo brings the action back', () => {
    const t = new Table();
    t.toViolence('aldric');
    const before = t.now;
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [9, 2, 1], reactor: [1, 1] } });
    const after = t.now;
    const length = t.log.length;
    t.run({ type: 'undo', actor: 'gm' });
    expect(t.log).toHaveLength(length + 1);
    expect(t.log.at(-1)).toMatchObject({ type: 'undone' });
    expect(t.now).toEqual(before);
    t.run({ type: 'redo', actor: 'gm' });
    expect(t.now).toEqual(after);
    t.refuse({ type: 'redo', actor: 'gm' }, 'nothing-to-redo');
  });

  it('undo twice goes two actions back; a new action clears what could be redone', () => {
    const t = new Table();
    t.toViolence('aldric');
    const start = t.now;
    t.run({ type: 'move', actor: 'aldric' });
    t.run({ type: 'move', actor: 'aldric' });
    t.run({ type: 'undo', actor: 'gm' });
    t.run({ type: 'undo', actor: 'gm' });
    expect(t.now).toEqual(start);
    t.run({ type: 'end-turn', actor: 'aldric' });
    t.refuse({ type: 'redo', actor: 'gm' }, 'nothing-to-redo');
  });

  it('undo back to any earlier event that ends an action; not into the middle of one, nor before the set-up', () => {
    const t = new Table();
    t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    const mark = t.state.sequence;
    const atMark = t.now;
    t.run({ type: 'escalate', actor: 'aldric', to: 'violent' });
    t.run({ type: 'move', actor: 'aldric' });
    t.refuse({ type: 'undo', actor: 'gm', toSequence: mark + 1 }, 'undo-target');
    t.refuse({ type: 'undo', actor: 'gm', toSequence: 0 }, 'nothing-to-undo');
    t.run({ type: 'undo', actor: 'gm', toSequence: mark });
    expect(t.now).toEqual(atMark);
    t.run({ type: 'redo', actor: 'gm' });
    expect(t.now.combat!.turn.moves).toBe(1);
    expect(effectiveEvents(t.log).map((e) => e.type)).not.toContain('undone');
  });

  it('undo and redo are the GM\'s', () => {
    const t = new Table();
    t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    t.refuse({ type: 'undo', actor: 'aldric' }, 'gm-only');
  });

  it('an illegal action throws a typed RuleError with the rule and the field, and emits nothing', () => {
    const t = new Table();
    t.toViolence('aldric');
    try {
      decide(t.state, EncounterCommandSchema.parse({ type: 'attack', actor: 'cultist', target: 'aldric' }), seededDice(1));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RuleError);
      expect((e as RuleError).toJSON()).toEqual({
        code: 'out-of-turn',
        message: 'it is Aldric\'s turn, not Cultist\'s (personae-core-2011.txt "The Action Order, and Actions")',
        field: 'actor',
        rule: { document: 'personae-core-2011.txt', section: 'The Action Order, and Actions' },
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over random play.

const IDS = ['aldric', 'cultist', 'brenna'] as const;

function randomCommand(k: number, a: number, b: number, state: EncounterState): EncounterCommandInput {
  const now = state.now!;
  const current = now.combat?.turn.actor ?? IDS[a % 3]!;
  const other = IDS[b % 3]!;
  switch (k) {
    case 0:
    case 1:
    case 2:
      return { type: 'attack', actor: current, target: other, defense: b % 2 ? 'dodge' : 'block', ...(a % 4 === 0 ? { spend: { extraHits: 1 } } : {}) };
    case 3:
      return { type: 'power', actor: current, power: 'Fireball', target: other };
    case 4:
      return { type: 'power', actor: current, power: 'Mend', target: other };
    case 5:
    case 6:
      return { type: 'end-turn', actor: current };
    case 7:
      return { type: 'move', actor: current };
    case 8:
      return { type: 'recover', actor: 'gm', target: other };
    case 9:
      return { type: 'stabilize', actor: current, target: other };
    case 10:
      return { type: 'escalate', actor: current, to: now.clock.stage === 'scene' ? 'non-violent' : 'violent' };
    case 11:
      return a % 3 === 0 ? { type: 'end-encounter', actor: 'gm' } : { type: 'attack', actor: current, target: other };
    case 12:
      return a % 3 === 0 ? { type: 'begin-scene', actor: 'gm' } : { type: 'end-turn', actor: current };
    case 13:
      return { type: 'undo', actor: 'gm' };
    case 14:
      return { type: 'redo', actor: 'gm' };
    default:
      return { type: 'interact', actor: current, target: other, skill: 'Persuade' };
  }
}

const step = fc.tuple(fc.integer({ min: 0, max: 15 }), fc.nat(8), fc.nat(8), fc.integer({ min: 1, max: 1_000_000 }));

/** Play random commands; refused ones leave the state alone. Returns the log and every state along the way. */
function play(steps: readonly [number, number, number, number][]) {
  const t = new Table([{ ...ALDRIC, criticals: 2 }, { ...CULTIST, hits: 2 }, BRENNA]);
  t.toViolence('aldric');
  let state = t.state;
  const log: EncounterEvent[] = [...t.log];
  const trail: { event: EncounterEvent; before: EncounterState; after: EncounterState }[] = [];
  for (const [k, a, b, seed] of steps) {
    const command = EncounterCommandSchema.parse(randomCommand(k, a, b, state));
    let events: EncounterEvent[];
    try {
      events = decide(state, command, seededDice(seed));
    } catch (e) {
      if (e instanceof RuleError) continue;
      throw e;
    }
    for (const event of events) {
      const next = evolve(state, event);
      trail.push({ event, before: state, after: next });
      state = next;
      log.push(event);
    }
  }
  return { state, log, trail };
}

describe('properties of the log', () => {
  const runs = { numRuns: 60 };

  it('replaying the event log gives the same state', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 10, maxLength: 40 }), (steps) => {
        const { state, log } = play(steps);
        expect(replay(log).now).toEqual(state.now);
      }),
      runs,
    );
  });

  it('undo then redo gives the same state', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 5, maxLength: 30 }), (steps) => {
        const { state } = play(steps);
        if (state.undoTo === null || state.undoTo < 1) return;
        const undone = evolve(state, decide(state, EncounterCommandSchema.parse({ type: 'undo', actor: 'gm' }), seededDice(1))[0]!);
        const redone = evolve(undone, decide(undone, EncounterCommandSchema.parse({ type: 'redo', actor: 'gm' }), seededDice(1))[0]!);
        expect(redone.now).toEqual(state.now);
      }),
      runs,
    );
  });

  it('hits only fall through recovery or healing; a status never skips a level in one attack', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 10, maxLength: 40 }), (steps) => {
        const { trail } = play(steps);
        for (const { event, before, after } of trail) {
          if (event.type === 'undone' || event.type === 'redone' || !before.now) continue;
          for (const id of IDS) {
            const h0 = before.now.characters[id]!.hits;
            const h1 = after.now!.characters[id]!.hits;
            if (h1 < h0) {
              expect(event.type).toBe('hits-removed');
              if (event.type === 'hits-removed') expect(event.reason).toMatch(/recover|heal|Mend|Fireball|Healing and Recovery/i);
            }
          }
          if (event.type === 'hits-sustained') {
            const c = before.now.characters[event.target]!;
            const level = (hits: number) => Math.max(-1, hits - (1 + c.def.attributes.stature));
            expect(Math.min(level(event.after), 3) - Math.min(level(event.before), 3)).toBeLessThanOrEqual(1);
          }
        }
      }),
      runs,
    );
  });

  it('the state of a fresh log starts empty', () => {
    expect(replay([])).toEqual(EMPTY_STATE);
  });
});

describe('who may issue a command', () => {
  it("the GM's commands need the GM; a character's need its controller", () => {
    const t = new Table([{ ...ALDRIC, controller: 'alice' }, CULTIST]);
    const parse = (c: EncounterCommandInput) => EncounterCommandSchema.parse(c);
    expect(requiredIssuer(t.state, parse({ type: 'undo', actor: 'gm' }))).toBe('gm');
    expect(requiredIssuer(t.state, parse({ type: 'move', actor: 'aldric' }))).toBe('alice');
    expect(requiredIssuer(t.state, parse({ type: 'move', actor: 'cultist' }))).toBe('gm');
  });
});
