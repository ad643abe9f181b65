import { z } from 'zod';
import { isRuleError, OFFLINE_GM, OFFLINE_NOW, poolDice, toCommandError, type Actor, type CommandError } from '@personae/core';
import { recordingDice, type DiceSource } from '@personae/dice';
import { parse as parseYaml } from 'yaml';
import { RecordedLucidityCommandSchema, type LucidityCommand } from './commands';
import { recordedPools } from './pools';
import { decideEncounter, evolveEncounter, initialEncounter, viewEncounter, type LucidityEvent, type LucidityTableState } from './encounter';

const ExpectSchema = z
  .object({
    id: z.string().optional(),
    health: z.number().int().optional(),
    lucidity: z.number().int().optional(),
    energy: z.number().int().optional(),
    actions: z.number().int().optional(),
    condition: z.enum(['active', 'unconscious', 'final-turn', 'dead']).optional(),
    round: z.number().int().optional(),
    current: z.string().optional(),
  })
  .strict();

/** A Lucidity scenario file (docs/lucidity/scenario-format.md). */
export const LucidityScenarioSchema = z
  .object({
    ruleset: z.literal('lucidity'),
    title: z.string().default('Lucidity scenario'),
    seed: z.number().int().default(1),
    options: z.record(z.string(), z.unknown()).default({}),
    characters: z
      .array(
        z
          .object({
            id: z.string().min(1),
            side: z.enum(['party', 'foe']).default('party'),
            hidden: z.boolean().default(false),
            controller: z.string().min(1).nullable().default(null),
            sheet: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
            statBlock: z.record(z.string(), z.unknown()).optional(),
          })
          .strict(),
      )
      .default([]),
    actions: z.array(z.intersection(z.object({ as: z.string().optional(), note: z.string().optional() }), z.record(z.string(), z.unknown()))).default([]),
    expect: z.array(ExpectSchema).optional(),
  })
  .strict();
export type LucidityScenario = z.output<typeof LucidityScenarioSchema>;

export interface ScenarioStep {
  readonly index: number;
  readonly command: Record<string, unknown>;
  readonly note?: string;
  readonly event: LucidityEvent;
}

export interface LucidityScenarioRun {
  readonly steps: readonly ScenarioStep[];
  readonly events: readonly LucidityEvent[];
  readonly state: LucidityTableState;
  readonly error?: CommandError & { action: number };
  readonly unmet: readonly string[];
}

export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';
}

/** Reads scenario text (YAML or JSON) and checks its shape; a wrong file names the field. */
export function parseLucidityScenario(text: string, name = 'scenario'): LucidityScenario {
  let raw: unknown;
  try {
    raw = parseYaml(text, { uniqueKeys: true });
  } catch (e) {
    throw new ScenarioFileError(`${name}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  const r = LucidityScenarioSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new ScenarioFileError(`${name}: ${i.path.map(String).join('.') || 'file'}: ${i.message}`);
  }
  return r.data;
}

/** Who issues an action: the GM unless `as` names a participant (a player). */
function actorFor(as: string | undefined): Actor {
  return as === undefined || as === 'gm' ? OFFLINE_GM : { role: 'player', participantId: as };
}

/**
 * Plays a scenario: adds its characters, then its actions, each through decide and evolve. Dice an action
 * does not give come from `dice`; every event records the dice it used, so the events replay exactly.
 */
/** One action as it was played, for a caller that watches the run: the state before it and the dice it drew. */
export interface ObservedStep {
  readonly index: number;
  readonly command: Record<string, unknown>;
  readonly actor: Actor;
  readonly before: LucidityTableState;
  readonly drawn: readonly number[];
  readonly event: LucidityEvent;
}

/** Plays a scenario; `observe` sees each action played (the lab judges its dice again under other rules). */
export function runLucidityScenario(scenario: LucidityScenario, sheets: (path: string) => unknown, dice: DiceSource, observe?: (step: ObservedStep) => void): LucidityScenarioRun {
  const { preset, ...overrides } = scenario.options as { preset?: string } & Record<string, unknown>;
  let state = initialEncounter(preset ?? 'standard', overrides);
  const steps: ScenarioStep[] = [];
  const commands: { command: Record<string, unknown>; as?: string; note?: string }[] = [
    ...scenario.characters.map((c) => ({
      command: {
        type: 'add',
        id: c.id,
        side: c.side,
        hidden: c.hidden,
        controller: c.controller,
        ...(c.sheet !== undefined ? { sheet: typeof c.sheet === 'string' ? sheets(c.sheet) : c.sheet } : {}),
        ...(c.statBlock !== undefined ? { statBlock: c.statBlock } : {}),
      },
    })),
    ...scenario.actions.map((a) => {
      const { as, note, ...command } = a as Record<string, unknown> & { as?: string; note?: string };
      return { command, ...(as !== undefined ? { as } : {}), ...(note !== undefined ? { note } : {}) };
    }),
  ];
  for (const [index, entry] of commands.entries()) {
    // A scenario is played in order by one hand: its undo and redo mean the latest, so the runner
    // names the version they are asked from.
    const { type, seen } = entry.command;
    const parsed = RecordedLucidityCommandSchema.safeParse((type === 'undo' || type === 'redo') && seen === undefined ? { ...entry.command, seen: state.log.length } : entry.command);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      const field = i.path.map(String).join('.');
      return { steps, events: steps.map((s) => s.event), state, error: { action: index, code: 'invalid_command', message: `${field || 'command'}: ${i.message}`, field }, unmet: [] };
    }
    try {
      const recorded = recordingDice(dice);
      const actor = actorFor(entry.as);
      // The dice the file records fill the action's named pools, as physical dice do at a table.
      const { command, pools } = recordedPools(parsed.data);
      const [event] = decideEncounter(state, command as LucidityCommand, { actor, dice: poolDice(pools, recorded.dice), now: OFFLINE_NOW });
      observe?.({ index, command: parsed.data as Record<string, unknown>, actor, before: state, drawn: recorded.drawn, event: event! });
      state = evolveEncounter(state, event!);
      steps.push({ index, command: entry.command, ...(entry.note ? { note: entry.note } : {}), event: event! });
    } catch (e) {
      if (!isRuleError(e)) throw e;
      return { steps, events: steps.map((s) => s.event), state, error: { action: index, ...toCommandError(e) }, unmet: [] };
    }
  }
  return { steps, events: steps.map((s) => s.event), state, unmet: unmetLucidity(scenario, state) };
}

function unmetLucidity(scenario: LucidityScenario, state: LucidityTableState): string[] {
  const out: string[] = [];
  const g = state.game;
  for (const x of scenario.expect ?? []) {
    if (x.round !== undefined && g.round !== x.round) out.push(`expected round ${x.round}, got ${g.round}`);
    if (x.current !== undefined && g.order[g.turn] !== x.current) out.push(`expected ${x.current}'s turn, got ${g.order[g.turn] ?? 'none'}`);
    if (x.id === undefined) continue;
    const c = g.combatants[x.id];
    if (!c) {
      out.push(`expected a combatant "${x.id}"`);
      continue;
    }
    for (const k of ['health', 'lucidity', 'energy', 'actions', 'condition'] as const) {
      if (x[k] !== undefined && c[k] !== x[k]) out.push(`expected ${x.id} ${k} ${x[k]}, got ${c[k]}`);
    }
  }
  return out;
}

/** The GM's view at the end, for printing. */
export function scenarioSummary(run: LucidityScenarioRun) {
  const view = viewEncounter(run.state, OFFLINE_GM);
  // The whole combatant the view carries for odds is left out: the summary is the outcome.
  const { log: _log, logOmitted: _omitted, ...rest } = view;
  return { ...rest, combatants: view.combatants.map((c) => { const { combatant: _whole, ...shown } = c as typeof c & { combatant?: unknown }; return shown; }) };
}
