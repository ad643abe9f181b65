import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ATTRIBUTES, allocateAttributes, attributeCaps, buildCharacter, checkCreation, type BuilderInput, type Priorities } from '../../src/character';
import { tableOptions } from '../../src/options/options';
import { core } from './helpers';

const prioritiesArb: fc.Arbitrary<Priorities> = fc.shuffledSubarray([...ATTRIBUTES], { minLength: 6, maxLength: 6 }).map((a) => ({
  first: [a[0]!, a[1]!],
  second: [a[2]!, a[3]!],
  third: a[4]!,
  handicap: a[5]!,
}));

const effectArb = fc.oneof(
  fc.constant({ type: 'described' as const }),
  fc.integer({ min: 1, max: 3 }).map((amount) => ({ type: 'bonus-result' as const, amount })),
  fc.integer({ min: 1, max: 3 }).map((dice) => ({ type: 'bonus-dice' as const, dice })),
  fc.record({ dice: fc.integer({ min: 1, max: 2 }), keep: fc.constantFrom('second' as const, 'better' as const), mayTouchHighest: fc.boolean() }).map((r) => ({ type: 'reroll' as const, ...r })),
  fc.integer({ min: 1, max: 2 }).map((hits) => ({ type: 'extra-hits-before-injured' as const, hits })),
);

const inputArb: fc.Arbitrary<BuilderInput> = fc.record({
  name: fc.constant('Built'),
  concept: fc.constant('Generated Hero'),
  creationPoints: fc.integer({ min: 5, max: 60 }),
  priorities: prioritiesArb,
  attributes: fc.dictionary(fc.constantFrom(...ATTRIBUTES), fc.integer({ min: -2, max: 30 }), { maxKeys: 4 }),
  skills: fc.array(
    fc.record({
      name: fc.constantFrom('Sword', 'Bow', 'Dodge', 'Block', 'Lore', 'Haggle', 'Stealth', 'Ride', 'Shield', 'Magic'),
      dice: fc.integer({ min: 0, max: 12 }),
      weapon: fc.option(fc.constantFrom('Longsword', 'Bow'), { nil: undefined }),
      shield: fc.option(fc.constant('Round Shield'), { nil: undefined }),
    }),
    { maxLength: 10 },
  ),
  talents: fc.array(fc.record({ name: fc.constantFrom('Common', 'Elvish', 'History', 'Gold', 'Law'), kind: fc.constantFrom('language' as const, 'expertise' as const, 'resource' as const), native: fc.boolean() }), { maxLength: 6 }),
  specialAbilities: fc.array(
    fc.record({
      name: fc.constantFrom('Grit', 'Aim', 'Origin', 'Luck', 'Edge', 'Ward'),
      effect: effectArb,
      culture: fc.boolean(),
      quality: fc.boolean(),
      conditional: fc.constantFrom([], ['at night'], ['once per encounter', 'against criminals']),
      upgrades: fc.integer({ min: 0, max: 3 }),
      exceptionalGear: fc.option(fc.constantFrom('Moonblade', 'Amulet'), { nil: undefined }),
    }),
    { maxLength: 6 },
  ),
  powers: fc.array(
    fc.record({
      name: fc.constantFrom('Bolt', 'Veil', 'Storm'),
      duration: fc.constantFrom('instant' as const, 'maintain' as const, 'independent' as const, 'special' as const),
      targets: fc.integer({ min: 1, max: 3 }),
      hits: fc.integer({ min: 0, max: 3 }),
    }),
    { maxLength: 4 },
  ),
});

describe('character builder (personae-core-2011.txt "The Character Creation Process")', () => {
  it('fills attributes highest priority first, within the caps and the creation points', () => {
    const p: Priorities = { first: ['competence', 'prowess'], second: ['cunning', 'stature'], third: 'knowledge', handicap: 'power' };
    expect(allocateAttributes(20, p)).toEqual({ competence: 8, prowess: 8, cunning: 4, stature: 0, knowledge: 0, power: 0 });
    expect(allocateAttributes(20, p, { competence: 5, prowess: 5, cunning: 3, stature: 3 })).toEqual({
      competence: 5, prowess: 5, cunning: 3, stature: 3, knowledge: 3, power: 1,
    });
  });

  it('lowers requests over a cap or the order, and says so', () => {
    const notes: string[] = [];
    const p: Priorities = { first: ['competence', 'prowess'], second: ['cunning', 'stature'], third: 'knowledge', handicap: 'power' };
    const a = allocateAttributes(20, p, { stature: 9, competence: 4, prowess: 4 }, notes);
    expect(a.stature).toBe(4);
    expect(notes[0]).toMatch(/^Stature lowered from 9 to 4/);
  });

  it('refuses priorities that do not name each attribute once', () => {
    const r = buildCharacter({ name: 'A', concept: 'B', priorities: { first: ['competence', 'competence'], second: ['cunning', 'stature'], third: 'knowledge', handicap: 'power' } }, core);
    expect(r.ok).toBe(false);
  });

  it('gives every weapon skill a weapon and every shield skill a shield (Step 6)', () => {
    const r = buildCharacter(
      {
        name: 'A',
        concept: 'B',
        priorities: { first: ['competence', 'prowess'], second: ['cunning', 'stature'], third: 'knowledge', handicap: 'power' },
        skills: [{ name: 'Longsword', attribute: 'stature', weapon: 'Longsword' }, { name: 'Shield', attribute: 'stature', shield: 'Heater' }],
      },
      core,
    );
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.sheet.gear.map((g) => [g.type, g.name])).toEqual([['weapon', 'Longsword'], ['shield', 'Heater']]);
  });

  it('builds companions on 10 creation points, as minions', () => {
    const r = buildCharacter({ name: 'Rex', concept: 'Hound', role: 'companion', creationPoints: 20, priorities: { first: ['stature', 'cunning'], second: ['prowess', 'competence'], third: 'power', handicap: 'knowledge' } }, core);
    expect(r.ok && r.sheet.creationPoints === 10 && r.sheet.tier === 'minion').toBe(true);
  });

  it('a sheet produced by the builder always passes checkCreation (property)', () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom('core-2011' as const, 'srd-v4' as const), fc.integer({ min: 1, max: 2 }), (input, preset, qualityUpgradeCost) => {
        const options = tableOptions(preset, { qualityUpgradeCost });
        const r = buildCharacter(input, options);
        if (!r.ok) {
          // Only requests that cannot add up to 5 are refused.
          expect(r.errors.map((e) => e.path)).toEqual(['attributes']);
          return;
        }
        expect(checkCreation(r.sheet, options).errors).toEqual([]);
        const caps = attributeCaps(r.sheet.creationPoints);
        expect(r.sheet.attributes[input.priorities.third]).toBeLessThanOrEqual(caps.third);
      }),
      { numRuns: 400 },
    );
  });

  it('with no attribute requests it always succeeds and spends every creation point (property)', () => {
    fc.assert(
      fc.property(prioritiesArb, fc.integer({ min: 5, max: 100 }), (priorities, creationPoints) => {
        const r = buildCharacter({ name: 'A', concept: 'B', priorities, creationPoints }, core);
        expect(r.ok).toBe(true);
        if (r.ok) expect(Object.values(r.sheet.attributes).reduce((a, b) => a + b, 0)).toBe(creationPoints);
      }),
    );
  });
});
