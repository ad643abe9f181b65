import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { givenDice } from '@personae/dice';
import { opposed } from '../helpers/given-sides';
import {
  judgeRecorded,
  loadSheet,
  parseScenario,
  rejudge,
  rejudgeLog,
  replayUnderRules,
  runScenario,
  scenarioCombatants,
  tableOptions,
  type CharacterSheet,
  type TableOptions,
} from '../../src/index';
import { seededDice } from '@personae/dice';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const scenarios = ['cultist-sword-fight', 'debate-to-violence', 'fireball', 'hearing-worn-down', 'recovery-after-fight'];

function load(name: string) {
  const file = join(root, 'examples/scenarios', `${name}.yaml`);
  const scenario = parseScenario(readFileSync(file, 'utf8'), name);
  const characters = scenarioCombatants(scenario, (path) => {
    const r = loadSheet(readFileSync(join(dirname(file), path), 'utf8'), path);
    if (!r.ok) throw new Error(r.error.message);
    return r.sheet as CharacterSheet;
  });
  return { scenario, characters };
}

describe('the same dice, other rules', () => {
  it.each(scenarios)('%s: judged again under its own rules, every roll comes out as recorded', (name) => {
    const { scenario, characters } = load(name);
    const options = tableOptions(scenario.options.preset, scenario.options.options as Partial<TableOptions>);
    const run = runScenario(scenario, characters, seededDice(scenario.seed));
    const rolls = rejudgeLog(run.events, options, options);
    expect(rolls.length).toBeGreaterThan(0);
    for (const roll of rolls) expect(roll.changed).toBe(false);
    for (const e of run.events) {
      if (e.type !== 'challenge-resolved') continue;
      const v = judgeRecorded(e.result, options);
      expect({ outcome: v.outcome, grade: v.grade, criticals: v.criticals }).toEqual({ outcome: e.result.outcome, grade: e.result.grade, criticals: e.result.criticals });
    }
  });

  it('a roll judged under other rules equals the same dice rolled under them', () => {
    const presets = ['core-2011', 'srd-v4'] as const;
    const pool = (n: number) => fc.array(fc.integer({ min: 1, max: 10 }), { minLength: n, maxLength: n });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((n) => fc.tuple(pool(n), fc.integer({ min: 1, max: 5 }).chain((m) => pool(m)))),
        fc.integer({ min: -3, max: 6 }),
        fc.integer({ min: -3, max: 6 }),
        fc.constantFrom(...presets),
        fc.constantFrom(...presets),
        fc.constantFrom('tie' as const, 'actor' as const, 'reactor' as const),
        ([a, r], ma, mr, from, to, fullTie) => {
          const then = tableOptions(from, { fullTie });
          const now = tableOptions(to, { fullTie });
          const spec = (given: number[]) => ({
            actor: { name: 'A', pool: { base: given.length, baseSource: 'pool' }, modifiers: [{ value: ma, source: 'attribute' }], given },
            reactor: { name: 'R', pool: { base: r.length, baseSource: 'pool' }, modifiers: [{ value: mr, source: 'attribute' }], given: r },
          });
          const recorded = opposed(spec(a), givenDice([]), then);
          const fresh = opposed(spec(a), givenDice([]), now);
          const x = rejudge(recorded, then, now);
          expect(x.now.outcome).toBe(fresh.outcome);
          expect(x.now.grade).toBe(fresh.grade);
          expect(x.now.criticals).toEqual(fresh.criticals);
          expect(x.then.outcome).toBe(recorded.outcome);
          expect(x.changed).toBe(x.now.outcome !== x.then.outcome || x.now.grade !== x.then.grade || x.now.criticals.actor !== x.then.criticals.actor || x.now.criticals.reactor !== x.then.criticals.reactor);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds the rolls a change of rules turns around', () => {
    // personae-core-2011.txt "The Challenge" step 4 leaves a full tie open: option fullTie.
    const spec = {
      actor: { name: 'A', pool: { base: 2, baseSource: 'pool' }, modifiers: [], given: [7, 3] },
      reactor: { name: 'R', pool: { base: 2, baseSource: 'pool' }, modifiers: [], given: [7, 3] },
    };
    const recorded = opposed(spec, givenDice([]), tableOptions('core-2011'));
    expect(recorded.outcome).toBe('tie');
    const x = rejudge(recorded, tableOptions('core-2011'), tableOptions('core-2011', { fullTie: 'actor' }));
    expect(x.changed).toBe(true);
    expect(x.now.outcome).toBe('success');
    const again = rejudge(recorded, tableOptions('core-2011'), tableOptions('core-2011', { fullTie: 'reroll' }));
    expect(again.now.rollsAgain).toBe(true);
    // The exact chance for 2d10 against 2d10: the same figure under both readings except the tie's share.
    expect(x.now.chance).toBeGreaterThan(x.then.chance);
  });

  it('plays a scenario again under other rules from the same seed', () => {
    const { scenario, characters } = load('cultist-sword-fight');
    const r = replayUnderRules(scenario, characters, scenario.seed, 'core-2011', {});
    expect(r.now.run.events).toEqual(r.then.run.events);
    const v4 = replayUnderRules(scenario, characters, scenario.seed, 'srd-v4', {});
    expect(v4.rolls).toHaveLength(r.rolls.length);
    // srd-v4 lets the encounter turn violent without a hostile step: the run plays through.
    expect(v4.now.run.error).toBeUndefined();
    // Stepwise escalation (option escalationMaySkip = false) refuses the file's skipped step.
    const stepwise = replayUnderRules(scenario, characters, scenario.seed, 'srd-v4', { escalationMaySkip: false });
    expect(stepwise.now.run.error?.code).toBe('escalation-order');
  });
});

describe('a recorded roll steered by a critical kept for it', () => {
  it('is judged again as recorded: the critical steers it again wherever it is still needed (personae-v4-srd-playing.txt "Critical Success")', async () => {
    const { Table, ALDRIC, CULTIST } = await import('../encounter/helpers');
    const t = new Table([{ ...ALDRIC, criticals: 1 }, CULTIST]);
    // Persuade 2 dice +3 against the cultist's answer: 2 and 1 against 9 and 8 fails, and the critical steers it.
    const events = t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', spend: { steer: 1 }, dice: { actor: [2, 1], reactor: [9, 8] } });
    const result = events.find((e) => e.type === 'challenge-resolved')!.result;
    expect(result.outcome).toBe('success');
    expect(result.grade).toBe('glancing');
    const options = t.now.options;
    const v = judgeRecorded(result, options);
    expect({ outcome: v.outcome, grade: v.grade }).toEqual({ outcome: 'success', grade: 'glancing' });
    expect(rejudge(result, options, options).changed).toBe(false);
  });
});
