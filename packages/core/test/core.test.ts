import { describe, expect, it } from 'vitest';
import { DiceInputError } from '@personae/dice';
import {
  cite,
  describeModifier,
  explainTotal,
  findRuleset,
  isRuleError,
  modifier,
  ownGet,
  passTime,
  refusalOf,
  registerRuleset,
  RuleError,
  startEffect,
  sumModifiers,
  tick,
  CLOCK_START,
  toCommandError,
  undoPosition,
  withEntry,
  type AnyRuleset,
  type UndoMark,
} from '../src';

describe('modifiers explain themselves', () => {
  it('sums and describes each modifier with its source', () => {
    const mods = [modifier('attribute', 'Cunning', 4), modifier('condition', 'Injured', -1, 'status')];
    expect(sumModifiers(mods)).toBe(3);
    expect(describeModifier(mods[0]!)).toBe('+4 Cunning');
    expect(describeModifier(mods[1]!, 'die')).toBe('-1 die Injured (status)');
    expect(explainTotal(12, mods, 'rolled')).toBe('12 rolled +4 Cunning -1 Injured (status) = 15');
  });
});

describe('RuleError', () => {
  it('names the rule it cites and survives the wire', () => {
    const rule = cite('personae-core-2011.txt', 'Duration');
    const e = new RuleError('power-duration', 'a power that inflicts hits is Instant', 'sheet.powers.0.duration', rule);
    expect(isRuleError(e)).toBe(true);
    expect(e.message).toBe('a power that inflicts hits is Instant');
    expect(e.rule).toEqual(rule);
    expect(toCommandError(e)).toEqual({
      code: 'power-duration',
      message: 'a power that inflicts hits is Instant (personae-core-2011.txt "Duration")',
      field: 'sheet.powers.0.duration',
      rule,
    });
    expect(JSON.parse(JSON.stringify(e))).toEqual(toCommandError(e));
    expect(isRuleError(new Error('plain'))).toBe(false);
  });

  it('is the one translation of a failed decision: refusals and mistyped dice, nothing else', () => {
    expect(refusalOf(new RuleError('not-yours', 'only the GM may', 'actor'))).toEqual({ code: 'not-yours', message: 'only the GM may', field: 'actor' });
    expect(refusalOf(new DiceInputError('die #1 is 11, but a d10 shows 1 to 10'))).toEqual({ code: 'dice_input', message: 'die #1 is 11, but a d10 shows 1 to 10', field: 'dice' });
    expect(refusalOf(new TypeError('bug'))).toBeNull();
  });
});

describe('game time and timed effects', () => {
  it('ticks units and restarts the smaller ones', () => {
    const c = tick(tick(CLOCK_START, 'round'), 'turn');
    expect(c).toEqual({ session: 1, scene: 1, round: 1, turn: 2 });
    expect(tick(c, 'scene')).toEqual({ session: 1, scene: 2, round: 0, turn: 0 });
    expect(tick(c, 'session')).toEqual({ session: 2, scene: 2, round: 0, turn: 0 });
  });

  it('expires an effect after its duration and ends short effects when a scene passes', () => {
    const poison = startEffect('poison', 'round', 2, { ailment: 'poison' });
    const boost = startEffect('boost', 'scene', 1, null);
    let r = passTime<unknown>([poison, boost], 'round');
    expect(r.expired).toEqual([]);
    r = passTime(r.active, 'round');
    expect(r.expired.map((e) => e.id)).toEqual(['poison']);
    const again = passTime<unknown>([startEffect('stun', 'turn', 3, null), boost], 'scene');
    expect(again.expired.map((e) => e.id).sort()).toEqual(['boost', 'stun']);
    expect(() => startEffect('x', 'round', -1, null)).toThrow(RangeError);
  });
});

describe('undo over an append-only log', () => {
  it('takes back the newest action in effect, and redo brings it back', () => {
    const marks: UndoMark[] = [
      { seq: 1, kind: 'action' },
      { seq: 2, kind: 'action' },
      { seq: 3, kind: 'undo', target: 2 },
    ];
    expect(undoPosition(marks)).toEqual({ active: [1], redoable: [2] });
    marks.push({ seq: 4, kind: 'redo', target: 2 });
    expect(undoPosition(marks)).toEqual({ active: [1, 2], redoable: [] });
    marks.push({ seq: 5, kind: 'undo', target: 2 }, { seq: 6, kind: 'action' });
    expect(undoPosition(marks)).toEqual({ active: [1, 6], redoable: [] });
  });
});

describe('records keyed by client ids', () => {
  it('treats prototype names as ordinary ids', () => {
    const r = withEntry<number>({}, 'constructor', 1);
    expect(ownGet(r, 'constructor')).toBe(1);
    expect(ownGet({} as Record<string, number>, 'constructor')).toBeUndefined();
    expect(ownGet(withEntry<number>({}, '__proto__', 2), '__proto__')).toBe(2);
  });
});

describe('ruleset registry', () => {
  it('finds a registered ruleset by id and refuses a second one under the same id', () => {
    const fake = { id: 'test-ruleset', title: 'Test' } as unknown as AnyRuleset;
    registerRuleset(fake);
    registerRuleset(fake);
    expect(findRuleset('test-ruleset')).toBe(fake);
    expect(() => registerRuleset({ ...fake })).toThrow(/already registered/);
  });
});
