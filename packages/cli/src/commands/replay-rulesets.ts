import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { seededDice } from '@personae/dice';
import { describeLucidityEvent, parseLucidityScenario, parseSheetText, runLucidityScenario, scenarioSummary } from '@personae/lucidity';
import { CliError, EXIT_USAGE, writeLines, type CliIo } from '../io.js';

export interface ReplayFlags {
  json?: boolean;
  seed?: number;
}

type ReplayRuleset = (file: string, text: string, flags: ReplayFlags, io: CliIo) => void | Promise<void>;

function replayLucidity(file: string, text: string, flags: ReplayFlags, io: CliIo): void {
  const scenario = parseLucidityScenario(text, basename(file));
  const sheets = (path: string): unknown => {
    const full = resolve(dirname(file), path);
    let sheetText: string;
    try {
      sheetText = readFileSync(full, 'utf8');
    } catch {
      throw new CliError(`${basename(file)}: cannot read the sheet ${path}`);
    }
    const r = parseSheetText(sheetText, path);
    if (!r.ok) throw new CliError(r.problem.message);
    return r.raw;
  };
  const seed = flags.seed ?? scenario.seed;
  const run = runLucidityScenario(scenario, sheets, seededDice(seed));
  const names = (id: string) => run.state.game.combatants[id]?.name ?? id;
  if (flags.json) {
    io.stdout(`${JSON.stringify({ ruleset: 'lucidity', events: run.events, state: scenarioSummary(run), ...(run.error ? { error: run.error } : {}), ...(run.unmet.length ? { unmet: run.unmet } : {}) }, null, 2)}\n`);
  } else {
    const lines = [`${scenario.title} (${basename(file)}; Lucidity; seed ${seed})`];
    for (const s of run.steps) lines.push(`[${s.index}] ${describeLucidityEvent(s.event, names)}`);
    if (scenario.expect) lines.push(run.unmet.length ? `expectations not met: ${run.unmet.length}` : 'every expectation met');
    writeLines(io.stdout, lines);
  }
  if (run.error) {
    io.stderr(`personae: action ${run.error.action} refused (${run.error.code}): ${run.error.message}\n`);
    io.setExitCode(EXIT_USAGE);
  } else if (run.unmet.length) {
    io.stderr(`personae: ${basename(file)}: ${run.unmet.join('; ')}\n`);
    io.setExitCode(EXIT_USAGE);
  }
}

async function replayD100(file: string, text: string, flags: ReplayFlags, io: CliIo): Promise<void> {
  // loaded only for d100 files, so other replays start without the ruleset
  const { d100Summary, describeD100Event, parseD100Scenario, runD100Scenario } = await import('@personae/d100');
  const scenario = parseD100Scenario(text, basename(file));
  const sheets = (path: string): unknown => {
    let sheetText: string;
    try {
      sheetText = readFileSync(resolve(dirname(file), path), 'utf8');
    } catch {
      throw new CliError(`${basename(file)}: cannot read the sheet ${path}`);
    }
    return parseYaml(sheetText) as unknown;
  };
  const seed = flags.seed ?? scenario.seed;
  const run = runD100Scenario(scenario, sheets, seededDice(seed));
  const summary = d100Summary(run) as { round: number; characters: { name: string; wounds: Record<string, number>; woundMax: Record<string, number>; stress: number; ailments: { name: string }[]; injuries: { name: string }[]; out: boolean }[] };
  if (flags.json) {
    io.stdout(`${JSON.stringify({ ruleset: 'd100', events: run.events, state: summary, ...(run.error ? { error: run.error } : {}) }, null, 2)}\n`);
  } else {
    const lines = [`${scenario.title} (${basename(file)}; d100; seed ${seed})`];
    const names = new Map<string, string>();
    for (const e of run.events) if (e.type === 'character-added') names.set(e.data.id, e.data.sheet.name);
    const name = (id: string) => names.get(id) ?? id;
    run.events.forEach((e, i) => lines.push(`[${i + 1}] ${describeD100Event(e, name)}`));
    for (const c of summary.characters) {
      const t = (k: string) => `${c.wounds[k]}/${c.woundMax[k]}`;
      lines.push(`${c.name}: Light ${t('light')}, Heavy ${t('heavy')}, Deadly ${t('deadly')}, Stress ${c.stress}${c.ailments.length ? `, ${c.ailments.map((a) => a.name).join(', ')}` : ''}${c.injuries.length ? `, injuries ${c.injuries.map((x) => x.name).join(', ')}` : ''}${c.out ? ', out of the fight' : ''}`);
    }
    writeLines(io.stdout, lines);
  }
  if (run.error) {
    io.stderr(`personae: action ${run.error.action} refused (${run.error.code}): ${run.error.message}\n`);
    io.setExitCode(EXIT_USAGE);
  }
}

/** Scenario files of other rulesets, by their top-level `ruleset:` key; files without one are Personae scenarios. */
export const REPLAY_RULESETS: Readonly<Record<string, ReplayRuleset>> = {
  lucidity: replayLucidity,
  d100: replayD100,
};

/** Replays `file` when it names another ruleset; false when it is a Personae scenario. */
export async function replayOtherRuleset(file: string, flags: ReplayFlags, io: CliIo): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return false; // the Personae path reports an unreadable file
  }
  let ruleset: unknown;
  try {
    const raw = parseYaml(text) as unknown;
    ruleset = raw !== null && typeof raw === 'object' ? (raw as { ruleset?: unknown }).ruleset : undefined;
  } catch {
    return false;
  }
  if (ruleset === undefined || ruleset === 'personae') return false;
  const replay = typeof ruleset === 'string' ? REPLAY_RULESETS[ruleset] : undefined;
  if (!replay) throw new CliError(`${basename(file)}: unknown ruleset ${JSON.stringify(ruleset)}; scenario files are Personae (no ruleset key) or ${Object.keys(REPLAY_RULESETS).join(', ')}`);
  await replay(file, text, flags, io);
  return true;
}
