import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { attackOdds, attackTraitEffects, attackCost, damageAfterProtection, damageDistribution, defenseTraitProtection, resolveAttack, resolveOptions, type LucidityOptions } from '../src';

const opts = resolveOptions();
const withOpt = (o: Partial<Record<keyof LucidityOptions, unknown>>) => resolveOptions('standard', o);

describe('lucidity-primary-character.txt "How Combat Works"', () => {
  it('attack 17 against Defense 12 hits with Penetration 5; Protection 3 is used up: full 6 damage', () => {
    const r = resolveAttack({ attack: 17, defense: 12, damage: 6, protection: 3 }, opts);
    expect(r).toMatchObject({ hit: true, penetration: 5, effectiveProtection: 0, damageTaken: 6 });
  });
  it('an attack equal to Defense misses and deals nothing', () => {
    expect(resolveAttack({ attack: 12, defense: 12, damage: 6, protection: 0 }, opts)).toMatchObject({ hit: false, penetration: 0, damageTaken: 0 });
  });
  it('Penetration 2 against Protection 6 leaves 4: damage 5 - 4 = 1', () => {
    expect(resolveAttack({ attack: 15, defense: 13, damage: 5, protection: 6 }, opts).damageTaken).toBe(1);
  });
  it('Protection left (8) at least double the damage (4): no damage', () => {
    expect(resolveAttack({ attack: 14, defense: 13, damage: 4, protection: 9 }, opts).damageTaken).toBe(0);
  });
  it('Protection left (7) exceeds the damage (5) but is under double: 1 damage', () => {
    expect(resolveAttack({ attack: 14, defense: 13, damage: 5, protection: 8 }, opts).damageTaken).toBe(1);
  });
  it('C2: Protection left equal to the damage (5): 1 under min-one, 0 under zero', () => {
    expect(resolveAttack({ attack: 14, defense: 13, damage: 5, protection: 6 }, opts).damageTaken).toBe(1);
    expect(resolveAttack({ attack: 14, defense: 13, damage: 5, protection: 6 }, withOpt({ protectionEqualsDamage: 'zero' })).damageTaken).toBe(0);
  });
  it('C1 double-deduction: Penetration 2, Protection 6, damage 10: 10 - 4 = 6, then 6 - 4 = 2 (single: 6)', () => {
    expect(damageAfterProtection(10, 6, 2, opts).damageTaken).toBe(6);
    expect(damageAfterProtection(10, 6, 2, withOpt({ protectionPipeline: 'double-deduction' })).damageTaken).toBe(2);
  });
  it('C1 raw-thresholds: Protection 12 is double damage 6 before Penetration 5: 0 (single: 1)', () => {
    expect(damageAfterProtection(6, 12, 5, opts).damageTaken).toBe(1);
    expect(damageAfterProtection(6, 12, 5, withOpt({ protectionPipeline: 'raw-thresholds' })).damageTaken).toBe(0);
  });
  it('refuses a negative Protection, naming the field and value', () => {
    expect(() => resolveAttack({ attack: 14, defense: 13, damage: 5, protection: -1 }, opts)).toThrow(/protection: a whole number from 0 to 1000, not -1/);
  });
  for (const pipeline of ['single', 'double-deduction', 'raw-thresholds'] as const) {
    it(`property (${pipeline}): damage taken is between 0 and the damage, and more Protection never hurts more`, () => {
      const o = withOpt({ protectionPipeline: pipeline });
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 20 }), (dmg, prot, pen) => {
          const a = damageAfterProtection(dmg, prot, pen, o).damageTaken;
          const b = damageAfterProtection(dmg, prot + 1, pen, o).damageTaken;
          expect(a).toBeGreaterThanOrEqual(0);
          expect(a).toBeLessThanOrEqual(dmg);
          expect(b).toBeLessThanOrEqual(a);
        }),
      );
    });
  }
  it('property: a higher attack never deals less damage (single pipeline)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), (atk, def, dmg, prot) => {
        const a = resolveAttack({ attack: atk, defense: def, damage: dmg, protection: prot }, opts).damageTaken;
        const b = resolveAttack({ attack: atk + 1, defense: def, damage: dmg, protection: prot }, opts).damageTaken;
        expect(b).toBeGreaterThanOrEqual(a);
      }),
    );
  });
});

describe('"Creating Traits" in an attack', () => {
  const attrs = { STR: 2, DEX: 3, CON: 0, KNO: 0, AWA: 0, WIL: 0, CHA: 0 };
  it('Impaler adds STR 2 to the Penetration of a STR attack, not of a DEX attack', () => {
    expect(attackTraitEffects(['Impaler'], attrs, { attribute: 'STR' }).penetration.map((m) => m.value)).toEqual([2]);
    expect(attackTraitEffects(['Impaler'], attrs, { attribute: 'DEX' }).penetration).toEqual([]);
  });
  it('Breakthrough adds DEX 3 to DEX damage; Backstabber 4 from a flank; Improvised Fighter +1 Penetration +2 damage', () => {
    const fx = attackTraitEffects(['Breakthrough', 'Backstabber', 'Improvised Fighter'], attrs, { attribute: 'DEX', flanking: true, improvised: true });
    expect(fx.damage.map((m) => [m.label, m.value])).toEqual([['Breakthrough', 3], ['Backstabber', 4], ['Improvised Fighter', 2]]);
    expect(fx.penetration.map((m) => m.value)).toEqual([1]);
  });
  it('worked: Impaler STR 2 makes Penetration 3 into 5, against Protection 5: the full 7 damage', () => {
    const fx = attackTraitEffects(['Impaler'], attrs, { attribute: 'STR' });
    const r = resolveAttack({ attack: 15, defense: 12, damage: 7, protection: 5, penetrationModifiers: fx.penetration }, opts);
    expect(r).toMatchObject({ penetration: 5, damageTaken: 7 });
  });
  it('1 on 1 gives the defender +1 Protection; Adrenaline Rush +6', () => {
    expect(defenseTraitProtection(['1 on 1', 'Adrenaline Rush'], { oneOnOne: true, adrenaline: true }).map((m) => m.value)).toEqual([1, 6]);
  });
  it('Brawler unarmed strikes ignore Protection and cost 1 action', () => {
    expect(attackTraitEffects(['Brawler'], attrs, { attribute: 'STR', unarmed: true }).ignoreProtection).toBe(true);
    expect(attackCost('unarmed', ['Brawler'])).toBe(1);
  });
});

describe('"Action Options": what attacks cost', () => {
  it('melee 2 actions, 1 dual-wielding; ranged 1; Rapid Strikes 1; spells 2 unless rapidStrikesSpells=included', () => {
    expect(attackCost('melee', [])).toBe(2);
    expect(attackCost('melee', [], { dualWielding: true })).toBe(1);
    expect(attackCost('ranged', [])).toBe(1);
    expect(attackCost('melee', ['Rapid Strikes'])).toBe(1);
    expect(attackCost('spell', ['Rapid Strikes'])).toBe(2);
    expect(attackCost('spell', ['Rapid Strikes'], { rapidStrikesSpells: 'included' })).toBe(1);
  });
});

describe('exact attack odds', () => {
  it('d20+5 against Defense 15 hits on 11..20: 0.5; damage 6 against Protection 0 always 6', () => {
    const o = attackOdds({ modifier: 5, defense: 15, damage: '6', protection: 0 }, opts);
    expect(o.hit).toBeCloseTo(0.5, 12);
    expect(o.expectedDamage).toBeCloseTo(3, 12);
  });
  it('odds sum to 1 and agree with enumerating every d20 and damage die', () => {
    const o = attackOdds({ modifier: 3, defense: 12, damage: '1d8+1', protection: 4 }, opts);
    expect(o.damageTaken.reduce((s, r) => s + r.chance, 0)).toBeCloseTo(1, 12);
    let expected = 0;
    for (let d = 1; d <= 20; d++) for (let f = 1; f <= 8; f++) expected += resolveAttack({ attack: d + 3, defense: 12, damage: f + 1, protection: 4 }, opts).damageTaken / 160;
    expect(o.expectedDamage).toBeCloseTo(expected, 12);
  });
  it('damage expressions: 2d6 has 1/36 of 12; a bad one is refused naming it', () => {
    expect(damageDistribution('2d6').get(12)).toBeCloseTo(1 / 36, 12);
    expect(() => damageDistribution('2x6')).toThrow(/"2x6" is not a damage expression/);
  });
});
