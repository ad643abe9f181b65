import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  attributeCaps,
  canAfford,
  deriveCharacter,
  endScene,
  hitsBeforeInjured,
  maxSkillDice,
  potentialFromSum,
  potentialThreshold,
  prowessPool,
  rarityOf,
  resourceCap,
  healthStatuses,
  allSkills,
} from '../../src/character';
import { tableOptions } from '../../src/options/options';
import { baseSheet, core, loadExample } from './helpers';

describe('Potential (personae-core-2011.txt "Potential")', () => {
  it('is the attribute sum divided by five, remainder ignored: 37 gives Potential 7', () => {
    expect(potentialFromSum(37, core)).toBe(7);
  });
  it('is 4 for sums from 20 to 24 (the document says "twenty to twenty-nine", which its own formula does not give)', () => {
    for (let s = 20; s <= 24; s++) expect(potentialFromSum(s, core)).toBe(4);
    expect(potentialFromSum(25, core)).toBe(5);
    expect(potentialFromSum(19, core)).toBe(3);
  });
  it('is never less than 1', () => {
    expect(potentialFromSum(0, core)).toBe(1);
    expect(potentialFromSum(5, core)).toBe(1);
  });
  it('divides by ten under the option potential=later', () => {
    expect(potentialFromSum(37, tableOptions('core-2011', { potential: 'later' }))).toBe(3);
  });
  it('has a Potential Threshold of Potential + 2', () => {
    expect(potentialThreshold(4)).toBe(6);
    expect(deriveCharacter(baseSheet(), core).potentialThreshold).toBe(6);
  });
});

describe('Priority caps (personae-core-2011.txt "Step 3: Allocate Attribute Points")', () => {
  it('with 20 creation points are 8, 6, 4 and 2', () => {
    expect(attributeCaps(20)).toEqual({ first: 8, second: 6, third: 4, handicap: 2 });
  });
  it('ignore the remainder', () => {
    expect(attributeCaps(25)).toEqual({ first: 10, second: 7, third: 5, handicap: 2 });
  });
});

describe('Skills (personae-core-2011.txt "Prowess Pool", "Defense")', () => {
  it('may have at most Potential + 2 dice: Potential 1, 3, 5 give 3, 5, 7', () => {
    expect([1, 3, 5].map(maxSkillDice)).toEqual([3, 5, 7]);
  });
  it('Prowess 4 gives a Prowess Pool of 12 dice', () => {
    expect(prowessPool(baseSheet())).toBe(12);
  });
  it('each development point spent on the pool adds 3 dice', () => {
    const s = baseSheet({
      history: [
        { type: 'award', id: 1, points: 2 },
        { type: 'spend', id: 2, award: 1, cost: 1, purchase: { kind: 'prowess-pool' } },
      ],
    });
    expect(prowessPool(s)).toBe(15);
  });
  it('Block, Dodge and Resist are unlocked for everyone at 2 dice with Stature, Cunning and Power', () => {
    const d = allSkills(baseSheet());
    expect(d.map((s) => [s.name, s.attribute, s.dice])).toEqual([
      ['Block', 'stature', 2],
      ['Dodge', 'cunning', 2],
      ['Resist', 'power', 2],
    ]);
  });
  it('derived values report assigned and unassigned pool dice', () => {
    const s = baseSheet({ skills: [{ name: 'Sword', attribute: 'stature', dice: 5 }] });
    const d = deriveCharacter(s, core);
    expect(d.prowessPool).toBe(12);
    expect(d.prowessDice).toEqual({ assigned: 3, unassigned: 9 });
  });
});

describe('Health (personae-core-2011.txt "Health", "Injury and Death", "Adversaries")', () => {
  it('hits before Injured are 1 + Stature', () => {
    expect(hitsBeforeInjured(baseSheet()).total).toBe(5);
  });
  it("the Dwarf's Iron Constitution makes it 2 + Stature", () => {
    const dwarf = loadExample('dwarf-iron-constitution.yaml');
    expect(dwarf.attributes.stature).toBe(6);
    expect(hitsBeforeInjured(dwarf).total).toBe(8);
  });
  it('each development point spent on health adds one', () => {
    const m = loadExample('merchant-privateer-scoundrel.yaml');
    expect(hitsBeforeInjured(m).parts.map((p) => p.source)).toEqual(['base', 'Stature', 'advancement']);
    expect(hitsBeforeInjured(m).total).toBe(1 + 4 + 1);
  });
  it('minor supporting characters are Injured by one hit; minions only have Incapacitated and Dying', () => {
    expect(hitsBeforeInjured(baseSheet({ role: 'adversary', tier: 'minor' })).total).toBe(1);
    expect(healthStatuses(baseSheet({ role: 'adversary', tier: 'minion' }))).toEqual(['incapacitated', 'dying']);
    expect(healthStatuses(baseSheet({ role: 'adversary', tier: 'major' }))).toEqual(['injured', 'wounded', 'incapacitated', 'dying']);
    expect(hitsBeforeInjured(baseSheet({ role: 'ally', tier: 'major' })).total).toBe(5);
  });
});

describe('Resources (personae-core-2011.txt "Resources")', () => {
  it('cost bands: 0 common, 1-3 uncommon, 4-6 rare, 7-9 very rare, 10+ unique', () => {
    expect([0, 1, 3, 4, 6, 7, 9, 10, 25].map(rarityOf)).toEqual([
      'common', 'uncommon', 'uncommon', 'rare', 'rare', 'very rare', 'very rare', 'unique', 'unique',
    ]);
  });
  it('resource talents add to the Resource Cap; temporary boosts last a number of scenes', () => {
    const s = baseSheet({
      talents: [{ name: 'Estate', kind: 'resource', native: false, uses: 1, dice: 1, resourceCap: 2 }],
      resourceBoosts: [{ amount: 3, scenes: 2, reason: 'a cache of jewels' }],
    });
    expect(resourceCap(s)).toEqual({ permanent: 2, temporary: 3, total: 5 });
    expect(canAfford(s, 5)).toBe(true);
    expect(canAfford(s, 6)).toBe(false);
    const later = endScene(endScene(s));
    expect(resourceCap(endScene(s)).total).toBe(5);
    expect(resourceCap(later)).toEqual({ permanent: 2, temporary: 0, total: 2 });
    expect(later.resourceBoosts).toEqual([]);
  });
});

describe('derived values', () => {
  it('cover the fields the CLI and server report', () => {
    const d = deriveCharacter(loadExample('desert-elf-singing-warrior.yaml'), core);
    expect(d).toMatchObject({
      potential: 6,
      potentialThreshold: 8,
      maxSkillDice: 8,
      prowessPool: 21,
      hitsBeforeInjured: 7,
      attributeCaps: { first: 12, second: 9, third: 6, handicap: 3 },
      limits: { skills: 4, specialAbilities: 5, powers: 7, talents: 2 },
    });
  });
  it('Potential is always at least 1 and Potential + 2 is the skill maximum (property)', () => {
    fc.assert(
      fc.property(fc.nat(500), (sum) => {
        const p = potentialFromSum(sum, core);
        return p >= 1 && p === Math.max(1, Math.floor(sum / 5)) && maxSkillDice(p) === p + 2;
      }),
    );
  });
});
