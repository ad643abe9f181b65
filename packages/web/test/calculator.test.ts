import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { challengeOdds, tableOptions, unopposedOdds } from '@personae/rules';
import { calculatorQuery, compareCalculator, newCalculator, readCalculatorQuery, type Calculator } from '../src/lib/calculator';

// The odds calculator's link: every input survives the round trip, a bad link never throws and names
// what it left out, and a comparison gives each rule set exactly what a separate query gives.

function full(): Calculator {
  const c = newCalculator();
  c.preset = 'srd-v4';
  c.changes = [['fullTie', 'reroll'], ['assist', 'web']];
  c.input.actor = { ...c.input.actor, name: 'Kestrel & Co', dice: 5, bonus: 3, modifiers: [{ value: -2, source: 'rain, wind' }, { value: 1, source: 'high ground' }], assistants: ['helper 1', 'helper 2'] };
  c.input.reactor = { ...c.input.reactor, name: 'Gate guard', dice: 4, bonus: -1, modifiers: [{ value: 2, source: 'alert' }] };
  c.input.purpose = 'Slip past the gate?';
  c.comparePresets = ['core-2011'];
  c.compareChanges = [['criticals', 'web']];
  c.chart = 'criticals-at-most';
  return c;
}

describe('the calculator link', () => {
  it('carries every input: rules, changed options, both pools, modifiers, helpers, stake, comparison and chart', () => {
    const c = full();
    const back = readCalculatorQuery(calculatorQuery(c));
    expect(back.problems).toEqual([]);
    expect(back.calculator).toEqual(c);
    const unopposed = newCalculator();
    unopposed.input.mode = 'unopposed';
    unopposed.input.difficulty = 5;
    const u = readCalculatorQuery(calculatorQuery(unopposed));
    expect(u.calculator.input.mode).toBe('unopposed');
    expect(u.calculator.input.difficulty).toBe(5);
  });

  it('keeps the defaults for what it cannot use and names the field, the value and the rule', () => {
    const { calculator, problems } = readCalculatorQuery('?rules=v9&a.dice=abc&r.dice=31&option=fullTie=sometimes&option=terms=modern&a.mod=big&compare=v5&chart=pie&mode=sideways');
    const fresh = newCalculator();
    expect(calculator.preset).toBe('core-2011');
    expect(calculator.input.actor.dice).toBe(fresh.input.actor.dice);
    expect(calculator.input.reactor.dice).toBe(fresh.input.reactor.dice);
    expect(calculator.changes).toEqual([]);
    expect(calculator.input.actor.modifiers).toEqual([]);
    expect(calculator.comparePresets).toEqual([]);
    expect(calculator.chart).toBe('outcomes');
    expect(problems).toHaveLength(9);
    expect(problems.join('\n')).toMatch(/rules "v9" is not a preset/);
    expect(problems.join('\n')).toMatch(/a\.dice "abc" is not a whole number from 0 to 30/);
    expect(problems.join('\n')).toMatch(/r\.dice "31"/);
    expect(problems.join('\n')).toMatch(/option "fullTie=sometimes".*fullTie is one of tie, actor, reactor, reroll/);
    expect(problems.join('\n')).toMatch(/option "terms=modern": the calculator changes only/);
  });

  it('never throws on any query string', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.tuple(fc.constantFrom('rules', 'option', 'a.dice', 'a.mod', 'r.bonus', 'a.help', 'difficulty', 'compare', 'compare-option', 'chart', 'mode'), fc.string())), (raw, pairs) => {
        const q = new URLSearchParams(pairs);
        for (const s of [raw, `?${q}`]) {
          const { calculator } = readCalculatorQuery(s);
          expect(calculator.input.actor.dice).toBeGreaterThanOrEqual(0);
          expect(calculator.input.actor.dice).toBeLessThanOrEqual(30);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('comparing rule sets in the calculator', () => {
  it('gives each rule set exactly what a separate query under it gives, and the differences from the first', () => {
    const c = newCalculator();
    c.input.actor = { ...c.input.actor, dice: 4, bonus: 2 };
    c.input.reactor = { ...c.input.reactor, dice: 4, bonus: 3 };
    c.comparePresets = ['srd-v4'];
    c.compareChanges = [['fullTie', 'actor']];
    const r = compareCalculator(c)!;
    expect(r.entries.map((e) => e.label)).toEqual(['core-2011', 'srd-v4', 'core-2011 with fullTie=actor']);
    const sides = { actor: { dice: 4, modifier: 2 }, reactor: { dice: 4, modifier: 3 } };
    expect(r.entries[0]!.odds).toEqual(challengeOdds(sides, tableOptions('core-2011')));
    expect(r.entries[1]!.odds).toEqual(challengeOdds(sides, tableOptions('srd-v4')));
    expect(r.entries[2]!.odds).toEqual(challengeOdds(sides, tableOptions('core-2011', { fullTie: 'actor' })));
    // personae-core-2011.txt "The Challenge", step 4: under fullTie=actor a full tie is the actor's success.
    expect(r.entries[2]!.odds.fullTie).toBe(0);
    expect(r.differences[1]!.success).toBeCloseTo(r.entries[2]!.odds.success - r.entries[0]!.odds.success, 12);
    expect(r.differences[0]!.failure).toBeCloseTo(r.entries[1]!.odds.failure - r.entries[0]!.odds.failure, 12);
  });

  it('reads the sides under each rule set: an assistant is a die under assist=web and +1 under core-2011', () => {
    const c = newCalculator();
    c.input.mode = 'unopposed';
    c.input.difficulty = 5;
    c.input.actor = { ...c.input.actor, dice: 3, bonus: 1, assistants: ['helper 1'] };
    c.compareChanges = [['assist', 'web']];
    const [core, web] = compareCalculator(c)!.entries;
    expect(core!.odds).toEqual(unopposedOdds({ player: { dice: 3, modifier: 2 }, difficulty: 5 }, tableOptions('core-2011')));
    expect(web!.odds).toEqual(unopposedOdds({ player: { dice: 4, modifier: 1 }, difficulty: 5 }, tableOptions('core-2011', { assist: 'web' })));
  });

  it('compares nothing until a preset or a variant is chosen', () => {
    expect(compareCalculator(newCalculator())).toBeNull();
  });
});
