import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { seededDice } from '@personae/dice';
import { OPTION_DEFINITIONS, OPTION_NAMES, PRESETS, parseLucidityScenario, rejudgeLucidityLog, rejudgeLucidityStep, replayLucidityUnderRules, runLucidityScenario, type ObservedStep } from '../src';

// The same dice under other rules: each attack of a Lucidity scenario decided again with the dice its
// command used, from the situation it was made in.

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../examples/lucidity/scenarios');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
const load = (f: string) => ({
  scenario: parseLucidityScenario(readFileSync(resolve(dir, f), 'utf8'), f),
  sheets: (path: string) => parseYaml(readFileSync(resolve(dir, path), 'utf8')) as unknown,
});
const ownRules = (options: Record<string, unknown>) => {
  const { preset, ...overrides } = options as { preset?: string } & Record<string, unknown>;
  return { preset: preset ?? 'standard', overrides };
};

describe('Lucidity attacks judged again with their own dice', () => {
  it.each(files)('%s: under its own rules every attack comes out as recorded, with its exact odds', (f) => {
    const { scenario, sheets } = load(f);
    const own = ownRules(scenario.options);
    const r = replayLucidityUnderRules(scenario, sheets, scenario.seed, own.preset, own.overrides);
    expect(r.then.run.error).toBeUndefined();
    expect(r.attacks.length).toBeGreaterThan(0);
    for (const a of r.attacks) {
      expect(a.changed, `action ${a.action}`).toBe(false);
      expect(a.extraDice).toBe(0);
      expect(a.now).toEqual(a.then);
      if (a.then.odds) expect(a.then.hit ? a.then.odds.hit > 0 : a.then.odds.hit < 1).toBe(true);
    }
  });

  it("as-written deducts Protection twice: the same dice do less damage (Lucidity \"How Combat Works\")", () => {
    const { scenario, sheets } = load('bandit-on-the-road.yaml');
    const r = replayLucidityUnderRules(scenario, sheets, scenario.seed, 'as-written', {});
    const changed = r.attacks.filter((a) => a.changed);
    expect(changed.length).toBeGreaterThan(0);
    for (const a of changed) expect(a.now!.damageTaken).toBeLessThanOrEqual(a.then.damageTaken);
    for (const a of r.attacks) if (a.now?.odds && a.then.odds) expect(a.now.odds.expectedDamage).toBeLessThanOrEqual(a.then.odds.expectedDamage + 1e-12);
  });

  it('judging again equals playing the same dice under the new rules, wherever the two runs stand in the same situation', () => {
    const enums = OPTION_NAMES.filter((n) => OPTION_DEFINITIONS[n].kind === 'enum');
    const option = fc.constantFrom(...enums).chain((name) => fc.constantFrom(...(OPTION_DEFINITIONS[name] as { values: readonly string[] }).values).map((value) => [name, value] as const));
    let compared = 0;
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.constantFrom(...PRESETS), fc.array(option, { maxLength: 3 }), fc.integer({ min: 1, max: 1000 }), (f, preset, pairs, seed) => {
        const { scenario, sheets } = load(f);
        const overrides = Object.fromEntries(pairs);
        const thenSteps = new Map<number, ObservedStep>();
        runLucidityScenario(scenario, sheets, seededDice(seed), (s) => thenSteps.set(s.index, s));
        runLucidityScenario({ ...scenario, options: { ...overrides, preset } }, sheets, seededDice(seed), (now) => {
          const then = thenSteps.get(now.index);
          if (!then || JSON.stringify(then.before.game) !== JSON.stringify(now.before.game)) return;
          if (then.drawn.join() !== now.drawn.slice(0, then.drawn.length).join()) return;
          const judged = rejudgeLucidityStep(then, { preset, overrides }, seed);
          const played = rejudgeLucidityStep(now, { preset, overrides }, seed);
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

describe("a table's log judged again (rejudgeLucidityLog)", () => {
  it.each(files)("%s: every attack of the log, under the table's own rules, comes out as recorded with the dice it drew", (f) => {
    const { scenario, sheets } = load(f);
    const own = ownRules(scenario.options);
    const run = runLucidityScenario(scenario, sheets, seededDice(scenario.seed));
    const log = run.events.map((event, i) => ({ seq: i + 1, event: JSON.parse(JSON.stringify(event)) }));
    const rows = rejudgeLucidityLog(log, { preset: own.preset, options: own.overrides }, own);
    expect(rows.length).toBe(run.events.filter((e) => e.type === 'attacked').length);
    for (const r of rows) {
      expect(r.reproduced, `#${r.seq}`).toBe(true);
      expect(r.changed).toBe(false);
      expect(r.now).toEqual(r.then);
      expect(r.extraDice).toBe(0);
    }
  });
  it('under as-written it gives the same verdicts as judging each attack of the run again', () => {
    const { scenario, sheets } = load('bandit-on-the-road.yaml');
    const own = ownRules(scenario.options);
    const run = runLucidityScenario(scenario, sheets, seededDice(scenario.seed));
    const rows = rejudgeLucidityLog(run.events.map((event, i) => ({ seq: i + 1, event })), { preset: own.preset, options: own.overrides }, { preset: 'as-written', overrides: {} });
    const steps = replayLucidityUnderRules(scenario, sheets, scenario.seed, 'as-written', {}).attacks;
    expect(rows.map((r) => [r.then, r.now])).toEqual(steps.map((s) => [s.then, s.now]));
    expect(rows.some((r) => r.changed)).toBe(true);
  });
});
