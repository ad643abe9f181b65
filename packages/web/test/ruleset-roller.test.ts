import { describe, expect, it } from 'vitest';
import { questionOdds, resolveOptions } from '@personae/d100';
import { attackOdds, lucidityChance, resolveOptions as lucidityOptions } from '@personae/lucidity';
import { d100Roller } from '../src/rulesets/d100/roller';
import { lucidityRoller } from '../src/rulesets/lucidity/roller';
import { defaultQuestion, readRollerQuery, rollerQuery } from '../src/rulesets/roller-query';

// The d100 and Lucidity rollers without a table: the question lives in the address, and the odds are the
// library's.

describe('the question in the address', () => {
  it('d100: a question written to a query reads back the same, with nothing refused', () => {
    const q = { ...defaultQuestion(d100Roller), preset: 'ffg-margin', options: [['rerollKeeps', 'better']] as const, fields: { ...defaultQuestion(d100Roller).fields, attack: 60, evasion: null, element: 'fire', affinity: 'weak', fate: true }, compare: ['seed'], chart: 'wounds-at-least' };
    const query = rollerQuery(q, d100Roller);
    expect(query).toBe('?rules=ffg-margin&option=rerollKeeps%3Dbetter&attack=60&evasion=&element=fire&affinity=weak&fate=1&compare=seed&chart=wounds-at-least');
    expect(readRollerQuery(query, d100Roller)).toEqual({ question: q, problems: [] });
    // The defaults make no query at all.
    expect(rollerQuery(defaultQuestion(d100Roller), d100Roller)).toBe('');
  });

  it('Lucidity: the same, the damage expression and a Lucidity roll in place of the d20 included', () => {
    const base = defaultQuestion(lucidityRoller);
    const q = { ...base, options: [['lucidityOnAttack', 'natural-20']] as const, fields: { ...base.fields, damage: '2d6+3', lucidity: true, current: 7, attribute: 2 }, compare: ['as-written'], chart: 'damage-at-most' };
    expect(readRollerQuery(rollerQuery(q, lucidityRoller), lucidityRoller)).toEqual({ question: q, problems: [] });
  });

  it('a link with values the page cannot use opens at the defaults and names each field, value and what is allowed', () => {
    const { question, problems } = readRollerQuery('?rules=gurps&attack=lots&element=laser&option=hitLocation=sideways&option=nonsense&compare=gurps&chart=pie', d100Roller);
    expect(question).toEqual(defaultQuestion(d100Roller));
    expect(problems).toHaveLength(7);
    expect(problems[0]).toMatch(/^rules: "gurps" is not a preset; the presets are seed, /);
    expect(problems[1]).toMatch(/^option: .*hitLocation.*sideways/);
    expect(problems[2]).toBe('option: "nonsense" is not NAME=VALUE with an option of these rules');
    expect(problems[3]).toBe('attack: "lots" is not a whole number from -200 to 300');
    expect(problems[4]).toMatch(/^element: "laser" is not one of melee, missile, /);
    expect(problems[5]).toMatch(/^compare: "gurps" is not another preset/);
    expect(problems[6]).toBe('chart: "pie" is not one of outcomes, wounds-at-least, wounds-at-most');
    const lu = readRollerQuery('?damage=3d&buffs=-1', lucidityRoller);
    expect(lu.question).toEqual(defaultQuestion(lucidityRoller));
    expect(lu.problems[0]).toMatch(/^damage: "3d" is not a damage expression/);
    expect(lu.problems[1]).toBe('buffs: "-1" is not a whole number from 0 to 20');
  });
});

describe("the roller's odds are the library's", () => {
  it('d100: the attack asked, with and without a Fate Point reroll', () => {
    const { question } = readRollerQuery('?attack=55&evasion=35&damage=6&armour=1&fate=1', d100Roller);
    const options = resolveOptions('seed');
    const asked = { attack: 55, evasion: 35, damage: 6, toughness: 40, armour: 1, element: 'melee', affinity: 'normal', advantages: 0, disadvantages: 0 } as const;
    expect(d100Roller.odds(question.fields, options)).toEqual(questionOdds({ ...asked, fateReroll: true }, options));
    expect(d100Roller.odds({ ...question.fields, fate: false }, options)).toEqual(questionOdds(asked, options));
  });
  it('Lucidity: a Lucidity roll in place of the d20 hits as often as the Lucidity roll succeeds', () => {
    const { question } = readRollerQuery('?lucidity=1&current=9&attribute=1&buffs=1', lucidityRoller);
    const opts = lucidityOptions('standard');
    const o = lucidityRoller.odds(question.fields, opts);
    expect(o.hit).toBeCloseTo(lucidityChance({ current: 9, attribute: 1, buffs: 1 }, opts), 12);
    expect(lucidityRoller.odds({ ...question.fields, lucidity: false }, opts)).toEqual(attackOdds({ modifier: 4, defense: 13, damage: '1d6+1', protection: 3, buffs: 1, breaks: 0 }, opts));
    expect(() => lucidityRoller.odds(question.fields, lucidityOptions('standard', { lucidityOnAttack: 'not-allowed' }))).toThrow(/lucidityOnAttack/);
  });
});
