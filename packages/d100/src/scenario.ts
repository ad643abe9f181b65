import { isRuleError, OFFLINE_GM, OFFLINE_NOW, RuleError, toCommandError } from '@personae/core';
import { givenDice, recordingDice, type DiceSource } from '@personae/dice';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { decideEncounter, encounterDecider, evolveEncounter, initialEncounter, viewEncounter, type EncounterEvent, type EncounterState } from './encounter';

/**
 * d100 scenario files (docs/d100/scenario-format.md): characters from sheets, then the encounter's
 * commands in order, each with the dice it uses when they are given; dice not given come from the
 * file's seed. Replaying a file gives the same events every time.
 */
export const scenarioSchema = z.strictObject({
  ruleset: z.literal('d100'),
  title: z.string().min(1).default('d100 scenario'),
  seed: z.number().int().default(1),
  preset: z.string().default('seed'),
  options: z.record(z.string(), z.unknown()).default({}),
  characters: z.record(z.string(), z.union([z.strictObject({ sheet: z.string().min(1) }), z.strictObject({ inline: z.unknown() })])),
  actions: z.array(z.looseObject({ type: z.string(), dice: z.array(z.number().int().min(1).max(100)).optional() })).default([]),
});
export type D100Scenario = z.infer<typeof scenarioSchema>;

export function parseD100Scenario(text: string, name: string): D100Scenario {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw new RuleError('bad-scenario', `${name}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`, 'file');
  }
  const r = scenarioSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new RuleError('bad-scenario', `${name}: ${i.path.join('.') || 'file'}: ${i.message}`, i.path.join('.'));
  }
  return r.data;
}

export interface D100Run {
  readonly events: readonly EncounterEvent[];
  readonly state: EncounterState;
  readonly error: { readonly action: number; readonly code: string; readonly message: string; readonly field?: string } | null;
}


/** One action of a scenario as it was played: the state before it, the dice it drew and the events it gave. */
export interface D100Step {
  readonly action: number;
  readonly command: unknown;
  readonly before: EncounterState;
  readonly drawn: readonly number[];
  readonly events: readonly EncounterEvent[];
}

/**
 * Plays a scenario: sheets are read through `sheet(path)`; `dice` gives the rolls the file does not.
 * `observe` sees each action played (the lab judges its dice again under other rules).
 */
export function runD100Scenario(scenario: D100Scenario, sheet: (path: string) => unknown, dice: DiceSource, observe?: (step: D100Step) => void): D100Run {
  const events: EncounterEvent[] = [];
  let state = initialEncounter();
  const step = (raw: Record<string, unknown>, index: number, given?: readonly number[]): D100Run['error'] => {
    // A scenario is played in order by one hand: its undo takes back the command before it, so the
    // runner names the version the undo is asked from.
    const parsed = encounterDecider.parseCommand(raw.type === 'undo' && raw.seen === undefined ? { ...raw, seen: state.seq } : raw);
    if (!parsed.ok) return { action: index, code: parsed.error.code, message: parsed.error.message, ...(parsed.error.field ? { field: parsed.error.field } : {}) };
    try {
      const { dice: source, drawn } = recordingDice(given ? givenDice(given) : dice);
      const before = state;
      const out = decideEncounter(state, parsed.command, { actor: OFFLINE_GM, dice: source, now: OFFLINE_NOW });
      observe?.({ action: index, command: raw, before, drawn, events: out });
      for (const e of out) {
        state = evolveEncounter(state, e);
        events.push(e);
      }
      return null;
    } catch (e) {
      if (isRuleError(e)) {
        const { code, message, field } = toCommandError(e);
        return { action: index, code, message, ...(field ? { field } : {}) };
      }
      throw e;
    }
  };
  const setup: Record<string, unknown>[] = [];
  if (scenario.preset !== 'seed' || Object.keys(scenario.options).length) setup.push({ type: 'set-options', preset: scenario.preset, options: scenario.options });
  for (const [id, c] of Object.entries(scenario.characters)) setup.push({ type: 'add-character', id, sheet: 'sheet' in c ? sheet(c.sheet) : c.inline });
  for (const s of setup) {
    const err = step(s, 0);
    if (err) return { events, state, error: err };
  }
  for (const [i, action] of scenario.actions.entries()) {
    const { dice: given, ...command } = action;
    const err = step(command, i + 1, given);
    if (err) return { events, state, error: err };
  }
  return { events, state, error: null };
}

/** Each character's final wound tracks, Stress and conditions, as the GM sees them. */
export function d100Summary(run: D100Run): unknown {
  // The sheets, fighters and options the view carries for odds are left out: the summary is the outcome.
  const { options: _options, log: _log, logOmitted: _omitted, characters, ...rest } = viewEncounter(run.state, OFFLINE_GM);
  return { ...rest, characters: characters.map(({ sheet: _sheet, fighter: _fighter, ...c }) => c) };
}
