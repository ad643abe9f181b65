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

type ReplayRuleset = (file: string, text: string, flags: ReplayFlags, io: CliIo) => void;

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

/** Scenario files of other rulesets, by their top-level `ruleset:` key; files without one are Personae scenarios. */
export const REPLAY_RULESETS: Readonly<Record<string, ReplayRuleset>> = {
  lucidity: replayLucidity,
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
  replay(file, text, flags, io);
  return true;
}
