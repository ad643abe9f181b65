import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededDice } from '@personae/dice';
import { loadSheet } from '../../src/character';
import {
  combatantFromSheet,
  decide,
  RuleError,
  parseScenario,
  replay,
  runScenario,
  scenarioCombatants,
  ScenarioError,
  tableOptions,
  threshold,
  unmetExpectations,
} from '../../src/index';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const scenarios = join(root, 'examples/scenarios');

function load(file: string) {
  const scenario = parseScenario(readFileSync(file, 'utf8'), file);
  const characters = scenarioCombatants(scenario, (path) => {
    const r = loadSheet(readFileSync(resolve(dirname(file), path), 'utf8'), path);
    if (!r.ok) throw new Error(r.error.message);
    return r.sheet;
  });
  return { scenario, characters, run: runScenario(scenario, characters) };
}

describe('example scenarios (examples/scenarios)', () => {
  const valid = readdirSync(scenarios).filter((f) => f.endsWith('.yaml'));
  const invalid = readdirSync(join(scenarios, 'invalid')).filter((f) => f.endsWith('.yaml'));

  it('there are fights and scenes to play, and invalid ones', () => {
    expect(valid.length).toBeGreaterThanOrEqual(4);
    expect(invalid.length).toBeGreaterThanOrEqual(4);
  });

  it.each(valid)('%s plays through and meets its expectations', (f) => {
    const { scenario, run } = load(join(scenarios, f));
    expect(run.error).toBeUndefined();
    expect(unmetExpectations(scenario, run)).toEqual([]);
    expect(replay(run.events).now).toEqual(run.state.now);
  });

  it.each(invalid)('invalid/%s is refused with the rule named, leaving the state as it was', (f) => {
    const { scenario, run } = load(join(scenarios, 'invalid', f));
    expect(run.error).toBeDefined();
    expect(run.error!.rule).toMatch(/personae-core-2011\.txt "/);
    expect(unmetExpectations(scenario, run)).toEqual([]);
    // The state is the one before the refused action, and refusing again changes nothing.
    expect(replay(run.events).now).toEqual(run.state.now);
    const refused = run.steps.length;
    expect(refused).toBe(run.error!.action);
  });
});

describe('the scenario format (docs/scenario-format.md)', () => {
  const base = `
title: t
characters:
  - { id: a, name: A, skills: [{ name: Sword, dice: 2, attribute: stature, weapon: Sword }], weapons: [{ name: Sword, size: one-handed }] }
  - { id: b, name: B, role: adversary }
`;

  it('actions in the short form or with a type; the GM is the actor when none is named', () => {
    const s = parseScenario(`${base}actions:\n  - escalate: { actor: a, to: non-violent }\n  - { type: end-encounter }\n  - begin-scene: { title: Next }\n`);
    const run = runScenario(s, s.characters as never);
    expect(run.error).toBeUndefined();
    expect(run.state.now!.clock.scene).toBe(2);
  });

  it('entered dice are used first, then the seed', () => {
    const text = `${base}seed: 5\nactions:\n  - escalate: { actor: a, to: non-violent }\n  - escalate: { actor: a, to: violent }\n  - attack: { actor: a, target: b, dice: { actor: [7, 7] } }\n`;
    const s = parseScenario(text);
    const one = runScenario(s, s.characters as never);
    const two = runScenario(s, s.characters as never);
    const c = one.events.find((e) => e.type === 'challenge-resolved');
    expect(c && c.type === 'challenge-resolved' && c.result.actor.roll.rolled).toEqual([7, 7]);
    expect(one.events).toEqual(two.events);
  });

  it('errors name the place in the file', () => {
    expect(() => parseScenario('characters: []')).toThrow(ScenarioError);
    expect(() => parseScenario(`${base}actions:\n  - attack: { actor: a, target: b, dice: { actor: [11] } }\n`)).toThrow(/actions\[0\]/);
    expect(() => parseScenario(`${base}actions:\n  - fly: { actor: a }\n`)).toThrow(/actions\[0\]/);
    expect(() => parseScenario('{')).toThrow(/not YAML or JSON/);
  });
});

describe('combatantFromSheet: a character sheet in the encounter', () => {
  it('takes skills, gear, abilities, powers, talents and the derived values from the sheet', () => {
    const r = loadSheet(readFileSync(join(root, 'examples/characters/dwarf-iron-constitution.yaml'), 'utf8'));
    if (!r.ok) throw new Error(r.error.message);
    const options = tableOptions('core-2011');
    const c = combatantFromSheet(r.sheet, options);
    expect(c.id).toBe('brogan-ironhand');
    // Iron Constitution: 2 + Stature 6.
    expect(threshold(c, options)).toBe(8);
    expect(c.skills.find((s) => s.name === 'Warhammer')).toMatchObject({ dice: 6, weapon: 'Warhammer' });
    expect(c.weapons).toEqual([{ name: 'Warhammer', size: 'two-handed', range: 'melee', group: 'bludgeons', hits: 1 }]);
    expect(c.shields).toEqual([{ name: 'Tower Shield', weight: 'heavy' }]);
    expect(c.powers[0]).toMatchObject({ name: 'Rune of Warding', duration: 'maintain' });
    expect(c.expertise).toEqual([{ name: 'Mining', dice: 1, uses: 1 }]);
    expect(combatantFromSheet(r.sheet, options, { id: 'brogan', seat: 2 })).toMatchObject({ id: 'brogan', seat: 2 });
  });

  it('a refused action from a sheet-built character is a RuleError', () => {
    const { run } = load(join(scenarios, 'invalid', 'illegal-parry.yaml'));
    expect(() => decide(run.state, { type: 'attack', actor: 'brogan', target: 'cultist', weapon: 'Warhammer', defense: 'parry' } as never, seededDice(1))).toThrow(RuleError);
  });
});
