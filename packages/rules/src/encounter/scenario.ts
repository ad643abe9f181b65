import { formatCitation, poolDice, type EnteredPools } from '@personae/core';
import { seededDice, type DiceSource } from '@personae/dice';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { syntaxIssues, type AnySheet } from '../character';
import { TableOptionsInputSchema, tableOptions } from '../options';
import { CombatantSchema, type Combatant } from './combatant';
import { EncounterCommandSchema, type EncounterCommand } from './commands';
import { RuleError } from './errors';
import { recordedPools, RecordedDiceSchema } from './recorded-dice';
import type { EncounterEvent } from './events';
import { evolve } from './evolve';
import { decide } from './decide';
import { STATUSES } from './injury';
import { combatantFromSheet } from './sheet';
import { EMPTY_STATE, type EncounterState } from './state';

/**
 * Scenario files (docs/scenario-format.md): the table's options, the characters (inline or by
 * sheet path), and the actions in order, each optionally with the dice rolled at the table.
 */

const COMMAND_TYPES = EncounterCommandSchema.options.map((o) => o.shape.type.value).filter((t) => t !== 'set-up');

/** A character read from a sheet file, with what the scenario adds. */
export const SheetEntrySchema = z.strictObject({
  sheet: z.string().min(1),
  id: z.string().optional(),
  seat: z.number().int().optional(),
  controller: z.string().optional(),
  role: z.enum(['main', 'companion', 'ally', 'adversary']).optional(),
  tier: z.enum(['minion', 'minor', 'major']).optional(),
  hits: z.number().int().min(0).optional(),
  criticals: z.number().int().min(0).optional(),
});
export type SheetEntry = z.infer<typeof SheetEntrySchema>;

export const ScenarioCharacterSchema = z.union([SheetEntrySchema, CombatantSchema]);

/**
 * One action: `{ type: attack, actor: aldric, ... }` or the short form `{ attack: { actor: aldric, ... } }`.
 * `actor` may be left out for the GM's commands. `note` is printed with the action.
 */
export const ScenarioActionSchema = z.preprocess((raw) => {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const entry = { ...(raw as Record<string, unknown>) };
  const named = Object.keys(entry).filter((k) => COMMAND_TYPES.includes(k as never));
  if (!('type' in entry) && named.length === 1) {
    // The short form; keys beside the command's name (note, dice, ...) belong to the command too.
    const key = named[0]!;
    const { [key]: body, ...siblings } = entry;
    const rest = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return { type: key, ...rest, ...siblings };
  }
  return entry;
}, z.looseObject({ type: z.enum(COMMAND_TYPES as [string, ...string[]]), note: z.string().optional() }));

export const ScenarioExpectSchema = z.strictObject({
  /** The action that must be refused, with its code and (part of) the rule it names. */
  error: z.strictObject({ action: z.number().int().min(1).optional(), code: z.string(), rule: z.string().optional() }).optional(),
  stage: z.enum(['scene', 'non-violent', 'hostile', 'violent']).optional(),
  round: z.number().int().optional(),
  characters: z
    .record(
      z.string(),
      z.strictObject({
        hits: z.number().int().optional(),
        status: z.enum(STATUSES).optional(),
        conscious: z.boolean().optional(),
        criticals: z.number().int().optional(),
      }),
    )
    .optional(),
});
export type ScenarioExpect = z.infer<typeof ScenarioExpectSchema>;

export const ScenarioSchema = z.strictObject({
  title: z.string().default('Scenario'),
  description: z.string().optional(),
  options: TableOptionsInputSchema.default({ preset: 'core-2011', options: {} }),
  /** Seed for the dice not entered with an action. */
  seed: z.number().int().default(1),
  characters: z.array(ScenarioCharacterSchema).min(1),
  actions: z.array(ScenarioActionSchema).default([]),
  expect: ScenarioExpectSchema.optional(),
});
export type Scenario = z.infer<typeof ScenarioSchema>;

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/** Read a scenario from YAML or JSON text. */
export function parseScenario(text: string, filename = 'scenario'): Scenario {
  const doc = parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: true });
  if (doc.errors.length > 0) {
    const first = syntaxIssues(doc.errors, filename)[0]!;
    const message = first.message.replace(/^(YAML|JSON) syntax error: /, 'not YAML or JSON: ');
    throw new ScenarioError(`${filename}${first.line !== undefined ? ` (line ${first.line})` : ''}: ${message}`);
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new ScenarioError(`${filename}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !('characters' in raw) && ('attributes' in raw || 'priorities' in raw)) {
    throw new ScenarioError(
      `${filename}: this is a character sheet, not a scenario: a scenario lists characters and actions (docs/scenario-format.md); check a sheet with "personae sheet check", or bring it to an encounter with --sheet`,
    );
  }
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = pathText(issue.path);
    throw new ScenarioError(`${filename}: ${path ? `${path}: ` : ''}${issue.message}`, path);
  }
  try {
    scenarioCommands(parsed.data);
  } catch (e) {
    if (e instanceof ScenarioError) throw new ScenarioError(`${filename}: ${e.message}`, e.path);
    throw e;
  }
  return parsed.data;
}

/** The scenario's characters as combatants; sheets are read by the loader the caller hands in. */
export function scenarioCombatants(scenario: Scenario, loadSheet: (path: string) => AnySheet): Combatant[] {
  const options = tableOptions(scenario.options.preset, scenario.options.options);
  return scenario.characters.map((entry, i) => {
    if (!('sheet' in entry)) return entry;
    const { sheet, ...extra } = entry;
    try {
      return combatantFromSheet(loadSheet(sheet), options, extra);
    } catch (e) {
      if (e instanceof ScenarioError) throw e;
      throw new ScenarioError(`characters[${i}]: ${(e as Error).message}`, `characters[${i}].sheet`);
    }
  });
}

/**
 * The scenario's actions as commands (GM's actor filled in), checked by the command schema, each with
 * the named pools its recorded dice fill (./recorded-dice.ts).
 */
export function scenarioCommands(scenario: Scenario): { command: EncounterCommand; pools: EnteredPools; note?: string }[] {
  return scenario.actions.map((action, i) => {
    const { note, ...written } = action as Record<string, unknown> & { note?: string };
    const recorded = RecordedDiceSchema.safeParse(written);
    if (!recorded.success) {
      const issue = recorded.error.issues[0]!;
      throw new ScenarioError(`actions[${i}] (${String(written.type)}): ${pathText(issue.path)}: ${issue.message}`, `actions[${i}].${pathText(issue.path)}`);
    }
    const { command: rest, pools } = recordedPools(written);
    const parsed = EncounterCommandSchema.safeParse({ actor: 'gm', ...rest });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ScenarioError(`actions[${i}] (${String(rest.type)}): ${pathText(issue.path)}: ${issue.message}`, `actions[${i}].${pathText(issue.path)}`);
    }
    return { command: parsed.data, pools, ...(note ? { note } : {}) };
  });
}

export interface ScenarioStep {
  /** 1-based position of the action in the file (0: the set-up). */
  readonly index: number;
  readonly command: EncounterCommand;
  readonly note?: string;
  readonly events: readonly EncounterEvent[];
  /** The state before the action. */
  readonly before: EncounterState;
}

export interface ScenarioRun {
  readonly events: EncounterEvent[];
  readonly state: EncounterState;
  readonly steps: ScenarioStep[];
  /** The action the rules refused; the run stops there, with the state as it was before it. */
  readonly error?: { readonly action: number; readonly code: string; readonly message: string; readonly rule?: string; readonly field?: string };
}

/** Play the scenario's actions through the decider; dice not entered come from the scenario's seed. */
export function runScenario(scenario: Scenario, characters: readonly Combatant[], dice: DiceSource = seededDice(scenario.seed)): ScenarioRun {
  const commands = scenarioCommands(scenario);
  let state = EMPTY_STATE;
  const events: EncounterEvent[] = [];
  const steps: ScenarioStep[] = [];
  const setUp = EncounterCommandSchema.parse({ type: 'set-up', actor: 'gm', title: scenario.title, options: scenario.options, characters });
  const all: { command: EncounterCommand; pools?: EnteredPools; note?: string }[] = [{ command: setUp }, ...commands];
  for (const [index, { command, pools, note }] of all.entries()) {
    let out: EncounterEvent[];
    try {
      out = decide(state, command, poolDice(pools ?? {}, dice));
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      return {
        events,
        state,
        steps,
        error: { action: index, code: e.code, message: e.message, ...(e.rule ? { rule: formatCitation(e.rule) } : {}), ...(e.field ? { field: e.field } : {}) },
      };
    }
    const before = state;
    for (const ev of out) state = evolve(state, ev);
    events.push(...out);
    steps.push({ index, command, ...(note ? { note } : {}), events: out, before });
  }
  return { events, state, steps };
}

/** What the scenario's `expect` says that the run did not do, one line each (empty: all held). */
export function unmetExpectations(scenario: Scenario, run: ScenarioRun): string[] {
  const expect = scenario.expect;
  const out: string[] = [];
  if (!expect) return out;
  if (expect.error) {
    if (!run.error) out.push(`expected the rules to refuse an action with "${expect.error.code}", but every action was accepted`);
    else {
      if (run.error.code !== expect.error.code) out.push(`expected refusal "${expect.error.code}", got "${run.error.code}"`);
      if (expect.error.action !== undefined && run.error.action !== expect.error.action) out.push(`expected action ${expect.error.action} to be refused, not action ${run.error.action}`);
      if (expect.error.rule && !(run.error.rule ?? '').includes(expect.error.rule)) out.push(`expected the refusal to name the rule ${expect.error.rule}, got ${run.error.rule ?? 'none'}`);
    }
  } else if (run.error) {
    out.push(`action ${run.error.action} was refused (${run.error.code}: ${run.error.message})`);
  }
  const now = run.state.now;
  if (!now) return out;
  if (expect.stage && now.clock.stage !== expect.stage) out.push(`expected a ${expect.stage} stage, found ${now.clock.stage}`);
  if (expect.round !== undefined && now.combat?.round !== expect.round) out.push(`expected round ${expect.round}, found ${now.combat?.round ?? 'none'}`);
  for (const [id, want] of Object.entries(expect.characters ?? {})) {
    const c = now.characters[id];
    if (!c) {
      out.push(`expected a character "${id}"`);
      continue;
    }
    if (want.hits !== undefined && c.hits !== want.hits) out.push(`${id}: expected ${want.hits} hits, found ${c.hits}`);
    if (want.status !== undefined && c.status !== want.status) out.push(`${id}: expected ${want.status}, found ${c.status}`);
    if (want.conscious !== undefined && c.conscious !== want.conscious) out.push(`${id}: expected ${want.conscious ? 'conscious' : 'unconscious'}`);
    const crits = (now.banks[id] ?? []).reduce((s, e) => s + e.count, 0);
    if (want.criticals !== undefined && crits !== want.criticals) out.push(`${id}: expected ${want.criticals} criticals, found ${crits}`);
  }
  return out;
}
