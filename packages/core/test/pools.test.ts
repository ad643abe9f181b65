import { describe, expect, it } from 'vitest';
import { givenDice, seededDice } from '@personae/dice';
import { cite, poolDice, requireEnteredPools, RuleError, type Actor, type DicePool, type EnteredPools } from '../src/index';

const gm: Actor = { role: 'gm', participantId: 'p-gm' };
const ann: Actor = { role: 'player', participantId: 'p-ann' };
const watcher: Actor = { role: 'observer', participantId: 'p-obs' };
const rule = cite('doc.txt', 'A Roll');

/** An attack by Ann's hero on a hidden foe of the GM's: the hero's roll, the foe's answer, rerolls of both. */
const declared: DicePool[] = [
  { name: 'actor', owners: [{ kind: 'character', id: 'hero', controller: 'p-ann', name: 'Hero' }], sides: 10, count: 3, label: "Hero's roll", rule },
  { name: 'target:foe', owners: [{ kind: 'character', id: 'foe', controller: null }], sides: 10, label: "the GM's answer" },
  { name: 'target:bo', owners: [{ kind: 'character', id: 'bo', controller: 'p-bo', name: 'Bo' }], sides: 10, label: "Bo's answer" },
  { name: 'difficulty', owners: [{ kind: 'opposition' }], sides: 10, label: "the GM's dice" },
  { name: 'free', owners: [{ kind: 'own' }], sides: 6, label: 'your own roll' },
  { name: 'rerolls', owners: [{ kind: 'character', id: 'hero', controller: 'p-ann', name: 'Hero' }, { kind: 'character', id: 'foe', controller: null }], sides: 10, label: 'rerolls' },
];

function refusal(entered: EnteredPools, actor: Actor, physicalDice = true): RuleError | null {
  try {
    requireEnteredPools(entered, declared, { actor, settings: { physicalDice } }, 'an attack', actor.role === 'gm' ? declared : declared.filter((p) => p.name === 'actor' || p.name === 'free'));
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(RuleError);
    return e as RuleError;
  }
}

describe('the authority over named pools', () => {
  it('a player fills their own character\'s pool and their free pool', () => {
    expect(refusal({ actor: [1, 2, 3] }, ann)).toBeNull();
    expect(refusal({ free: [6] }, ann)).toBeNull();
  });

  it("a player never fills the GM's side, another player's character, a hidden character's or a shared pool", () => {
    for (const name of ['target:foe', 'target:bo', 'difficulty', 'rerolls']) {
      const e = refusal({ [name]: [5] }, ann);
      expect(e, name).toMatchObject({ code: 'not-your-dice', field: `dice.${name}` });
    }
    // The hidden foe is never named: its pool is "the GM's side".
    expect(refusal({ 'target:foe': [5] }, ann)!.message).toMatch(/is the GM's side/);
    expect(refusal({ rerolls: [5] }, ann)!.message).toMatch(/rerolls includes the GM's side/);
    expect(refusal({ 'target:bo': [5] }, ann)!.message).toMatch(/is Bo's roll/);
  });

  it('the GM fills any pool the command rolls; an observer none', () => {
    expect(refusal({ actor: [1, 2, 3], 'target:foe': [4], 'target:bo': [4], difficulty: [9], rerolls: [1], free: [2] }, gm, false)).toBeNull();
    expect(refusal({ actor: [1, 2, 3] }, watcher)).toMatchObject({ code: 'forbidden' });
  });

  it("a player's dice need the table to take physical dice", () => {
    expect(refusal({ actor: [1, 2, 3] }, ann, false)).toMatchObject({ code: 'physical-dice-off', field: 'dice.actor' });
    // No settings (a replayed file): taken as allowed.
    expect(() => requireEnteredPools({ actor: [1, 2, 3] }, declared, { actor: ann })).not.toThrow();
  });

  it('refuses a pool the command does not roll, a face the die cannot show and a wrong count, naming the pool, the value and the rule', () => {
    const unknown = refusal({ order: [5] }, ann)!;
    expect(unknown).toMatchObject({ code: 'dice-pool', field: 'dice.order' });
    // A player hears only of the pools they may fill.
    expect(unknown.message).toMatch(/an attack rolls no pool "order"; it rolls "actor" \(Hero's roll\), "free" \(your own roll\)$/);
    expect(refusal({ free: [7] }, ann)).toMatchObject({ code: 'dice-face', message: expect.stringMatching(/dice\.free: die #1 is 7, but a d6 shows 1 to 6/) });
    expect(refusal({ actor: [1, 2] }, gm)).toMatchObject({ code: 'dice-count', rule, message: expect.stringMatching(/dice\.actor: 2 dice were entered for Hero's roll, which rolls 3/) });
  });
});

describe('the pool source', () => {
  it("rolls an entered pool from its faces and a pool left out from the host's dice: a mixed roll", () => {
    const dice = poolDice({ actor: [9, 2] }, givenDice([4, 7, 1]));
    const mine = dice.roll('actor', 2);
    const theirs = dice.roll('reactor', 3);
    expect([mine.source, mine.rolled]).toEqual(['given', [9, 2]]);
    expect([theirs.source, theirs.rolled]).toEqual(['given', [4, 7, 1]]);
    const seeded = poolDice({ actor: [9, 2] }, seededDice(3));
    expect(seeded.roll('reactor', 2).source).toBe('seeded');
    expect(() => seeded.finish()).toThrow(/dice\.actor: 2 dice were entered, but the command rolled nothing in pool "actor"/);
  });

  it('refuses a wrong count or a bad face when the pool is rolled', () => {
    expect(() => poolDice({ actor: [9, 2] }, seededDice(1)).roll('actor', 3, 10, rule, "Hero's roll")).toThrow(/dice\.actor: 2 dice were entered, but Hero's roll takes 3/);
    expect(() => poolDice({ actor: [9, 12] }, seededDice(1)).roll('actor', 2)).toThrow(/die #2 is 12, but a d10 shows 1 to 10/);
  });

  it('a pool drawn die by die takes its entered faces, then the host\'s; finish refuses a shortfall or a leftover', () => {
    const short = poolDice({ rerolls: [3] }, givenDice([8]));
    const stream = short.pool('rerolls');
    expect([stream.kind, stream.die(10), stream.die(10)]).toEqual(['given', 3, 8]);
    expect(() => short.finish()).toThrow(/dice\.rerolls: 1 die was entered, but the command rolled 2 in pool "rerolls"/);
    const left = poolDice({ rerolls: [3, 4] }, seededDice(1));
    left.pool('rerolls').die(10);
    expect(() => left.finish()).toThrow(/2 dice were entered, but the command rolled 1/);
    const exact = poolDice({ rerolls: [3, 4] }, seededDice(1));
    exact.pool('rerolls').die(10);
    exact.pool('rerolls').die(10);
    expect(() => exact.finish()).not.toThrow();
    // A roll outside any pool is always the host's.
    expect(poolDice({ rerolls: [3] }, givenDice([6])).die(10)).toBe(6);
  });
});
