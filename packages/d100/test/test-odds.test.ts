import { describe, expect, it } from 'vitest';
import { commandSchema, declaredTestOdds, DEFAULT_OPTIONS, initialEncounter, resolveOptions, testOdds, type TestCommand } from '../src';
import { decide, run } from './drive';

/**
 * The odds of a plain test before it is rolled (d100-combat-rules.txt, "How Attacks Work": at or under
 * the target succeeds, each Advantage adds 10; "Fate Points": a point buys Advantages or a reroll),
 * each worked out by hand from the hundred rolls.
 */
describe('the exact odds of a test', () => {
  it('counts the rolls at or under the target; 01 and 100 decide alone under autoResults=ffg', () => {
    expect(testOdds(45, [], DEFAULT_OPTIONS)).toEqual({ success: 0.45, critical: 0.1 });
    // target 120: every roll but the 100 succeeds; target -5: only the 01
    expect(testOdds(120, [], DEFAULT_OPTIONS).success).toBe(0.99);
    expect(testOdds(-5, [], DEFAULT_OPTIONS)).toEqual({ success: 0.01, critical: 0.01 });
    expect(testOdds(120, [], resolveOptions('seed', { autoResults: 'none' })).success).toBe(1);
  });

  it('with a Fate Point reroll of a failure: 0.45 + 0.55 × 0.45, under either kept roll', () => {
    expect(testOdds(45, [], DEFAULT_OPTIONS, true).success).toBeCloseTo(0.6975, 10);
    expect(testOdds(45, [], resolveOptions('seed', { rerollKeeps: 'better' }), true).success).toBeCloseTo(0.6975, 10);
    // a Critical: 0.10 + 0.55 × 0.10
    expect(testOdds(45, [], DEFAULT_OPTIONS, true).critical).toBeCloseTo(0.155, 10);
  });
});

const sheet = (name: string) => ({ name, side: 'pc', scores: { melee: 40, ballistic: 40, magic: 40, strength: 40, toughness: 40, agility: 35, intelligence: 40, perception: 40, willpower: 40, fellowship: 40 }, realisation: 30 });
const test = (c: Record<string, unknown>) => commandSchema.parse({ type: 'test', ...c }) as TestCommand;

describe('the odds of a declared test match the test the table rolls', () => {
  it('Advantages and a Fate Point Advantage waiting for the next test raise the target', () => {
    let s = run(initialEncounter(), { type: 'add-character', id: 'k', sheet: sheet('Kit') });
    // Agility 35 with one Advantage: 45
    expect(declaredTestOdds(s, test({ who: 'k', score: 'agility', advantages: [{ label: 'high ground', count: 1 }] }))).toMatchObject({ target: 45, success: 0.45 });
    s = run(s, { type: 'spend-fate', who: 'k', spend: 'advantage' });
    // two Advantages from the Fate Point (option fatePointAdvantages): 35 + 20 = 55
    const odds = declaredTestOdds(s, test({ who: 'k', score: 'agility' }));
    expect(odds).toMatchObject({ target: 55, success: 0.55 });
    // the table rolls against the same target: 55 succeeds, 56 fails
    const rolled = decide(s, { type: 'test', who: 'k', score: 'agility' }, [55])[0]!;
    expect(rolled).toMatchObject({ type: 'test-rolled', data: { target: 35, success: true, modifiers: [{ label: 'Fate Point', value: 20 }] } });
    expect(odds.modifiers.map((m) => [m.label, m.value])).toEqual([['Fate Point', 20]]);
    expect(decide(s, { type: 'test', who: 'k', score: 'agility' }, [56])[0]).toMatchObject({ data: { success: false } });
  });

  it('a character not in the view has no odds', () => {
    expect(() => declaredTestOdds(initialEncounter(), test({ who: 'nobody', score: 'agility' }))).toThrow(/no character "nobody"/);
  });
});
