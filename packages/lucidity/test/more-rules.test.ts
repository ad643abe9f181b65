import { describe, expect, it } from 'vitest';
import { againstTarget, castingDelay, currentAfterLevelUp, educatedBonus, opposedWinner, resolveOptions } from '../src';

const opts = resolveOptions();
const o = (x: Record<string, unknown>) => resolveOptions('standard', x);

describe('"Action Options": rolls against an attribute (Charm/Deceive, Read a Person)', () => {
  it('against AWA +2 the target is 12 by default; under opposed-roll it is the target\'s d20 + AWA', () => {
    expect(againstTarget(2, opts)).toEqual({ target: 12, defenderD20: null });
    expect(againstTarget(2, o({ passiveValue: 'opposed-roll' }), undefined, 9)).toEqual({ target: 11, defenderD20: 9 });
  });
  it('ties go to the defender by default, to the attacker or a new pair under opposedTie', () => {
    expect(opposedWinner(12, 12, opts)).toBe('defender');
    expect(opposedWinner(12, 12, o({ opposedTie: 'attacker' }))).toBe('attacker');
    expect(opposedWinner(12, 12, o({ opposedTie: 'reroll' }))).toBe('reroll');
    expect(opposedWinner(13, 12, opts)).toBe('attacker');
  });
});

describe('"Creating Traits": Educated (C13)', () => {
  it('+1 on a skill without a rank, not on a ranked one; Armor and Language only under all-unranked', () => {
    expect(educatedBonus(['Educated'], 'Rhetoric', 0, opts)).toBe(1);
    expect(educatedBonus(['Educated'], 'Rhetoric', 2, opts)).toBe(0);
    expect(educatedBonus(['Educated'], 'Language (Elvish)', 0, opts)).toBe(0);
    expect(educatedBonus(['Educated'], 'Language (Elvish)', 0, o({ educatedScope: 'all-unranked' }))).toBe(1);
    expect(educatedBonus([], 'Rhetoric', 0, opts)).toBe(0);
  });
});

describe('"Action Options": Begin Casting a Spell', () => {
  it('CON +1: 11 damage in one hit delays the spell a round; 6 + 5 only when cumulative', () => {
    expect(castingDelay([11], 1, opts)).toBe(1);
    expect(castingDelay([6, 5], 1, opts)).toBe(0);
    expect(castingDelay([6, 5], 1, o({ castDelayDamage: 'cumulative' }))).toBe(1);
  });
});

describe('"Advancement": current values after a level-up', () => {
  it('Health 5 of 7 becomes 11 of 13 (raise-with-max), or stays 5 (keep)', () => {
    const v = { health: 5, maxHealth: 7, lucidity: 14, maxLucidity: 14, energy: 6, maxEnergy: 6 };
    const after = { maxHealth: 13, maxLucidity: 15, maxEnergy: 10 };
    expect(currentAfterLevelUp(v, after, opts)).toMatchObject({ health: 11, lucidity: 15, energy: 10 });
    expect(currentAfterLevelUp(v, after, o({ levelUpCurrent: 'keep' }))).toMatchObject({ health: 5, lucidity: 14, energy: 6 });
  });
});
