import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { seededDice } from '@personae/dice';
import { OPTION_SPECS, PRESET_NAMES, parseD100Scenario, rejudgeD100Log, rejudgeD100Step, replayD100UnderRules, resolveOptions, runD100Scenario, type D100Step, type OptionName } from '../src';

// The same dice under other rules: each attack of a d100 scenario decided again with the dice its
// command drew, from the situation it was made in.

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../examples/d100/scenarios');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
const load = (f: string) => ({
  scenario: parseD100Scenario(readFileSync(resolve(dir, f), 'utf8'), f),
  sheets: (path: string) => parseYaml(readFileSync(resolve(dir, path), 'utf8')) as unknown,
});

describe('d100 attacks judged again with their own dice', () => {
  it.each(files)('%s: under its own rules every attack comes out as recorded, with its exact odds', (f) => {
    const { scenario, sheets } = load(f);
    const r = replayD100UnderRules(scenario, sheets, scenario.seed, scenario.preset, scenario.options);
    expect(r.then.run.error).toBeNull();
    expect(r.attacks.length).toBeGreaterThan(0);
    for (const a of r.attacks) {
      expect(a.changed, `action ${a.action}`).toBe(false);
      expect(a.extraDice).toBe(0);
      expect(a.now).toEqual(a.then);
    }
    // A hit the record shows had a chance above nothing (and a miss a chance below certainty).
    for (const a of r.attacks) if (a.then.odds) expect(a.then.hit ? a.then.odds.hit > 0 : a.then.odds.hit < 1).toBe(true);
  });

  it('under another preset the whole scenario is also played again from the same seed', () => {
    const { scenario, sheets } = load('weakness-one-more.yaml');
    const r = replayD100UnderRules(scenario, sheets, scenario.seed, 'ffg-margin', {});
    expect(r.now.preset).toBe('ffg-margin');
    expect(r.now.options.hitLocation).toBe('reversed-attack-roll');
    expect(r.now.run.events.length).toBeGreaterThan(0);
    // Under ffg-margin the location is the reversed attack roll, so no location die is drawn.
    expect(r.attacks.some((a) => a.now && a.now.location !== a.then.location)).toBe(true);
  });

  it('judging again equals playing the same dice under the new rules, wherever the two runs stand in the same situation', () => {
    const enumOptions = (Object.keys(OPTION_SPECS) as OptionName[]).filter((n) => OPTION_SPECS[n].kind === 'enum');
    const option = fc.constantFrom(...enumOptions).chain((name) => fc.constantFrom(...Object.keys((OPTION_SPECS[name] as { values: Record<string, string> }).values)).map((value) => [name, value] as const));
    let compared = 0;
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.constantFrom(...PRESET_NAMES), fc.array(option, { maxLength: 3 }), fc.integer({ min: 1, max: 1000 }), (f, preset, pairs, seed) => {
        const { scenario, sheets } = load(f);
        const overrides = Object.fromEntries(pairs);
        const options = resolveOptions(preset, overrides);
        const thenSteps = new Map<number, D100Step>();
        runD100Scenario(scenario, sheets, seededDice(seed), (s) => thenSteps.set(s.action, s));
        runD100Scenario({ ...scenario, preset, options: overrides }, sheets, seededDice(seed), (now) => {
          const then = thenSteps.get(now.action);
          if (!then || now.action === 0) return;
          // The same fighters, turn and dice: judging the recorded attack again must give what the new rules gave.
          const same = JSON.stringify([then.before.fighters, then.before.current, then.before.oneMore]) === JSON.stringify([now.before.fighters, now.before.current, now.before.oneMore]);
          if (!same || then.drawn.join() !== now.drawn.slice(0, then.drawn.length).join()) return;
          const judged = rejudgeD100Step(then, { preset, options }, seed);
          const played = rejudgeD100Step(now, { preset, options }, seed);
          if (!judged || !played || judged.extraDice > 0) return;
          expect(judged.now).toEqual(played.then);
          compared++;
        });
      }),
      { numRuns: 40, seed: 16 },
    );
    expect(compared).toBeGreaterThan(10);
  });
});

describe("a table's log judged again (rejudgeD100Log)", () => {
  it.each(files)('%s: every attack of the log, under the table\'s own rules, comes out as recorded with the dice it drew', (f) => {
    const { scenario, sheets } = load(f);
    const run = runD100Scenario(scenario, sheets, seededDice(scenario.seed));
    const log = run.events.map((event, i) => ({ seq: i + 1, event: JSON.parse(JSON.stringify(event)) }));
    const rows = rejudgeD100Log(log, {}, { preset: scenario.preset, overrides: scenario.options });
    // Each attack, and each attack a Fate Point's Reroll made again.
    const attack = (e: (typeof run.events)[number]): boolean => (e.type === 'attack-resolved' && !e.data.summary.burst) || (e.type === 'test-rerolled' && attack(e.data.replacement));
    expect(rows.length).toBe(run.events.filter(attack).length);
    for (const r of rows) {
      expect(r.changed, `#${r.seq}`).toBe(false);
      expect(r.now).toEqual(r.then);
      expect(r.extraDice).toBe(0);
    }
  });
  it('under another preset it gives the same verdicts as judging each attack of the run again', () => {
    const { scenario, sheets } = load('weakness-one-more.yaml');
    const run = runD100Scenario(scenario, sheets, seededDice(scenario.seed));
    const rows = rejudgeD100Log(run.events.map((event, i) => ({ seq: i + 1, event })), {}, { preset: 'ffg-margin', overrides: {} });
    const steps = replayD100UnderRules(scenario, sheets, scenario.seed, 'ffg-margin', {}).attacks;
    expect(rows.map((r) => [r.dice, r.then, r.now])).toEqual(steps.map((s) => [s.dice, s.then, s.now]));
    expect(rows.some((r) => r.changed)).toBe(true);
  });
});
