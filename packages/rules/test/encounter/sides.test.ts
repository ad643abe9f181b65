import { describe, expect, it } from 'vitest';
import { applyEvent, buildSide, checkOneSpecialAbility, RuleError, inScope, parseCombatant, skillUse, tableOptions, type Snapshot } from '../../src/index';

const options = tableOptions('core-2011');

const SELLSWORD = parseCombatant({
  id: 'sellsword',
  name: 'Sellsword',
  attributes: { competence: 2, prowess: 3, cunning: 2, power: 1, knowledge: 1, stature: 3 },
  skills: [{ name: 'Longsword', dice: 3, attribute: 'stature', weapon: 'Longsword' }],
  weapons: [{ name: 'Longsword', size: 'one-handed' }],
  specialAbilities: [
    { name: 'Longsword Training', effect: { type: 'bonus-result', amount: 1, scope: { skills: ['Longsword'] } } },
    { name: 'Expert Longsword', effect: { type: 'bonus-dice', dice: 1, scope: { skills: ['Longsword'] } } },
    { name: 'Steady Hand', quality: true, effect: { type: 'bonus-result', amount: 1, scope: { challenges: ['other'] } } },
  ],
});

/** A table with the one character, set up as an encounter sets it up. */
function table(): Snapshot {
  return applyEvent(null, { type: 'set-up', title: 'test', options, characters: [SELLSWORD] });
}

describe('checkOneSpecialAbility (personae-core-2011.txt "Scope of Special Abilities")', () => {
  const who = table().characters.sellsword!;
  const [training, expert, steady] = SELLSWORD.specialAbilities;

  it('allows one chosen special ability, and Qualities besides it', () => {
    expect(() => checkOneSpecialAbility(who, [training!], 'abilities')).not.toThrow();
    expect(() => checkOneSpecialAbility(who, [training!, steady!], 'abilities')).not.toThrow();
    expect(() => checkOneSpecialAbility(who, [training!, training!], 'abilities')).not.toThrow();
  });

  it('refuses a second one, naming the rule and the field', () => {
    let error: unknown;
    try {
      checkOneSpecialAbility(who, [training!, expert!], 'abilities');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuleError);
    expect(error).toMatchObject({ code: 'second-special-ability', field: 'abilities', rule: { document: 'personae-core-2011.txt', section: 'Scope of Special Abilities' } });
    expect((error as Error).message).toContain('Longsword Training and Expert Longsword');
  });
});

describe('sides of challenges other than the encounter\'s own', () => {
  it('an effect scoped to "other" challenges applies to kind "other" only', () => {
    const steady = SELLSWORD.specialAbilities[2]!.effect;
    expect(inScope(steady, 'Longsword', 'other', 'issue')).toBe(true);
    expect(inScope(steady, 'Longsword', 'attack', 'issue')).toBe(false);
  });

  it('buildSide applies the Quality to an "other" challenge without its being named', () => {
    const now = table();
    const side = buildSide(now, { who: now.characters.sellsword!, skill: skillUse(SELLSWORD, 'Longsword', 'stature'), attribute: 'stature', role: 'issue', kind: 'other' }, 'abilities');
    expect(side.spec.modifiers).toEqual([
      { value: 3, source: 'Stature' },
      { value: 1, source: 'Steady Hand (Quality)' },
    ]);
    expect(side.chosen).toEqual([]);
  });
});
