import { poolDice } from '@personae/core';
import { seededDice } from '@personae/dice';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DICE_LOG_KEEP, diceLogDecider as d, type DiceLogCommand, type DiceLogState } from '../src/dice-log';
import { isRuleError, type Actor } from '../src/domain';

const gm: Actor = { role: 'gm', participantId: 'g' };
const ann: Actor = { role: 'player', participantId: 'a' };
const bob: Actor = { role: 'player', participantId: 'b' };
const observer: Actor = { role: 'observer', participantId: 'observer' };
const now = '2025-01-01T00:00:00.000Z';

function parse(raw: unknown): DiceLogCommand {
  const r = d.parseCommand(raw);
  if (!r.ok) throw new Error(r.error.message);
  return r.command;
}

function apply(state: DiceLogState, actor: Actor, raw: unknown, dice = seededDice(1)) {
  const events = d.decide(state, parse(raw), { actor, dice, now });
  return { events, state: events.reduce(d.evolve, state) };
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isRuleError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('dice-log domain', () => {
  it('parses roll and undo, with clear errors', () => {
    expect(parse({ type: 'roll', count: 3 })).toEqual({ type: 'roll', count: 3, sides: 10, secret: false });
    expect(d.parseCommand({ type: 'jump' })).toMatchObject({ ok: false, error: { code: 'unknown_command', field: 'type' } });
    expect(d.parseCommand(null)).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(d.parseCommand({ type: 'roll', count: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_command', field: 'count' } });
    expect(d.parseCommand({ type: 'roll', count: 2, sides: 1 })).toMatchObject({ ok: false, error: { field: 'sides' } });
    expect(d.parseCommand({ type: 'undo', extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
  });

  it('stores every die of a roll and marks entered dice', () => {
    const rolled = apply(d.initialState(), ann, { type: 'roll', count: 4, label: 'Sneak' });
    const e = rolled.events[0]!;
    expect(e).toMatchObject({ type: 'rolled', rollId: 1, by: 'a', count: 4, sides: 10, entered: false, label: 'Sneak' });
    if (e.type !== 'rolled') throw new Error();
    expect(e.dice).toHaveLength(4);
    expect(e.highest).toBe(Math.max(...e.dice));
    const entered = apply(rolled.state, bob, { type: 'roll', count: 3 }, poolDice({ roll: [2, 10, 5] }, seededDice(1)));
    expect(entered.events[0]).toMatchObject({ rollId: 2, dice: [2, 10, 5], highest: 10, entered: true });
    // A wrong count, a face the die cannot show, a pool the roll does not roll: refused by name.
    expect(() => apply(rolled.state, bob, { type: 'roll', count: 3 }, poolDice({ roll: [2, 10] }, seededDice(1)))).toThrow(/dice\.roll: 2 dice were entered for your roll, which rolls 3/);
    expect(() => apply(rolled.state, bob, { type: 'roll', count: 2, sides: 6 }, poolDice({ roll: [2, 7] }, seededDice(1)))).toThrow(/dice\.roll: die #2 is 7, but a d6 shows 1 to 6/);
    expect(() => apply(rolled.state, bob, { type: 'roll', count: 1 }, poolDice({ actor: [2] }, seededDice(1)))).toThrow(/dice\.actor: a roll rolls no pool "actor"; it rolls "roll"/);
  });

  it('shows a secret roll only to the roller and the GM', () => {
    const { events, state } = apply(d.initialState(), ann, { type: 'roll', count: 2, secret: true });
    const e = events[0]!;
    expect(d.redactEvent(e, gm, state)).toBe(e);
    expect(d.redactEvent(e, ann, state)).toBe(e);
    for (const viewer of [bob, observer]) {
      expect(d.redactEvent(e, viewer, state)).toEqual({ type: 'secret-rolled', rollId: 1, by: 'a', count: 2, sides: 10 });
      const view = d.viewState(state, viewer) as { rolls: Array<Record<string, unknown>> };
      expect(view.rolls[0]).not.toHaveProperty('dice');
    }
    expect((d.viewState(state, ann) as { rolls: Array<Record<string, unknown>> }).rolls[0]).toHaveProperty('dice');
  });

  it('lets the GM undo any roll and a player only their own', () => {
    expect(refusal(() => apply(d.initialState(), gm, { type: 'undo' }))).toBe('nothing_to_undo');
    const s1 = apply(d.initialState(), ann, { type: 'roll', count: 1 }).state;
    expect(refusal(() => apply(s1, bob, { type: 'undo' }))).toBe('not_yours');
    expect(refusal(() => apply(s1, observer, { type: 'roll', count: 1 }))).toBe('forbidden');
    const own = apply(s1, ann, { type: 'undo' });
    expect(own.events).toEqual([{ type: 'roll-undone', rollId: 1, by: 'a' }]);
    expect(own.state.rolls[0]!.undone).toBe(true);
    const s2 = apply(own.state, bob, { type: 'roll', count: 1 }).state;
    expect(apply(s2, gm, { type: 'undo' }).events[0]).toMatchObject({ rollId: 2, by: 'g' });
  });

  it('keeps a bounded history and never mutates the state it folds', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 150 }), fc.integer(), (counts, seed) => {
        const dice = seededDice(seed);
        let state = d.initialState();
        for (const count of counts) {
          const frozen = JSON.stringify(state);
          const before = state;
          state = apply(state, ann, { type: 'roll', count }, dice).state;
          expect(JSON.stringify(before)).toBe(frozen);
        }
        expect(state.rolls.length).toBe(Math.min(counts.length, DICE_LOG_KEEP));
        expect(state.nextRollId).toBe(counts.length + 1);
        expect(JSON.parse(JSON.stringify(state))).toEqual(state);
      }),
      { numRuns: 50 },
    );
  });
});
