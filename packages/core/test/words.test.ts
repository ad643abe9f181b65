import { describe, expect, it } from 'vitest';
import { indefiniteArticle, mayFillPool, withArticle, type Actor, type DicePool } from '../src/index';

describe('the indefinite article before a name put into a sentence', () => {
  it('"an" before a vowel sound, "a" before a consonant sound', () => {
    expect(withArticle('attack command')).toBe('an attack command');
    expect(withArticle('end-turn command')).toBe('an end-turn command');
    expect(withArticle('undo command')).toBe('an undo command');
    expect(withArticle('roll')).toBe('a roll');
    expect(withArticle('stem-bleeding command')).toBe('a stem-bleeding command');
    expect(withArticle('Axe')).toBe('an Axe');
  });

  it('follows the sound where the spelling misleads', () => {
    expect(withArticle('use-consumable command')).toBe('a use-consumable command');
    expect(withArticle('unique weapon')).toBe('a unique weapon');
    expect(withArticle('one-handed sword')).toBe('a one-handed sword');
    expect(withArticle('uninjured foe')).toBe('an uninjured foe');
    expect(withArticle('hour')).toBe('an hour');
    expect(indefiniteArticle('hostile encounter')).toBe('a');
  });
});

describe('who may fill a pool', () => {
  const gm: Actor = { role: 'gm', participantId: 'gm' };
  const ann: Actor = { role: 'player', participantId: 'p-ann' };
  const watcher: Actor = { role: 'observer', participantId: 'p-w' };
  const pool = (owners: DicePool['owners']): DicePool => ({ name: 'x', owners, sides: 10, label: 'x' });
  it("the GM any; a player their own roll and their characters', never the GM's or a shared pool; an observer none", () => {
    const hers = pool([{ kind: 'character', id: 'hero', controller: 'p-ann' }]);
    const gms = pool([{ kind: 'character', id: 'foe', controller: null }]);
    const shared = pool([{ kind: 'character', id: 'hero', controller: 'p-ann' }, { kind: 'character', id: 'foe', controller: null }]);
    const own = pool([{ kind: 'own' }]);
    expect([hers, gms, shared, own].map((p) => mayFillPool(p, gm))).toEqual([true, true, true, true]);
    expect([hers, gms, shared, own].map((p) => mayFillPool(p, ann))).toEqual([true, false, false, true]);
    expect([hers, gms, shared, own].map((p) => mayFillPool(p, watcher))).toEqual([false, false, false, false]);
  });
});
