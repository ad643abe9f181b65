import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { seededDice } from '@personae/dice';
import { describeLucidityEvent, parseLucidityScenario, parseSheetText, runLucidityScenario, scenarioSummary } from '@personae/lucidity';
import { CliError, EXIT_USAGE, writeLines, type CliIo } from '../io.js';
import { clean } from './odds-lab.js';

export interface ReplayFlags {
  json?: boolean;
  seed?: number;
  /** The same dice under another preset of the file's ruleset, and `option` NAME=VALUE words. */
  rules?: string;
  option?: string[];
}

/** `--option NAME=VALUE` words; `--rules` alone starts from the preset's own options, `--option` alone from the file's. */
function overridesOf(flags: ReplayFlags, fileOptions: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = flags.rules === undefined ? { ...fileOptions } : {};
  for (const word of flags.option ?? []) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new CliError(`--option: "${word}" is not NAME=VALUE`);
    out[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return out;
}

const chance = (p: number | undefined) => (p === undefined ? '-' : `${(p * 100).toFixed(1)}%`);

type ReplayRuleset = (file: string, text: string, flags: ReplayFlags, io: CliIo) => void | Promise<void>;

function replayLucidity(file: string, text: string, flags: ReplayFlags, io: CliIo): void {
  if (flags.rules !== undefined || (flags.option ?? []).length > 0) throw new CliError(`${basename(file)}: --rules and --option judge the same dice under other rules for Personae and d100 scenarios; a Lucidity scenario is replayed under its own rules only`);
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
  if (flags.rules !== undefined || (flags.option ?? []).length > 0) return replayD100Rules(file, scenario, sheets, seed, flags, io);
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

/** `personae replay FILE --rules PRESET` for a d100 scenario: every attack then and now, with its exact odds under each. */
async function replayD100Rules(file: string, scenario: import('@personae/d100').D100Scenario, sheets: (path: string) => unknown, seed: number, flags: ReplayFlags, io: CliIo): Promise<void> {
  const { replayD100UnderRules, d100Summary } = await import('@personae/d100');
  const preset = flags.rules ?? scenario.preset;
  const overrides = overridesOf(flags, scenario.options);
  let r: import('@personae/d100').D100RulesReplay;
  try {
    r = replayD100UnderRules(scenario, sheets, seed, preset, overrides);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`--rules/--option: ${(e as Error).message}`);
  }
  const label = (p: string, o: Readonly<Record<string, unknown>>) => [p, ...Object.entries(o).map(([k, v]) => `${k}=${String(v)}`)].join(' ');
  const thenLabel = label(scenario.preset, scenario.options);
  const nowLabel = label(preset, overrides);
  const changed = r.attacks.filter((a) => a.changed).length;
  if (flags.json) {
    const state = (run: import('@personae/d100').D100Run) => d100Summary(run);
    io.stdout(
      `${JSON.stringify(
        {
          command: 'replay',
          ruleset: 'd100',
          title: scenario.title,
          seed,
          then: { rules: thenLabel, preset: scenario.preset, options: scenario.options },
          now: { rules: nowLabel, preset, options: overrides },
          attacks: r.attacks,
          changed,
          state: { then: state(r.then.run), now: state(r.now.run) },
          ...(r.then.run.error ? { thenError: r.then.run.error } : {}),
          ...(r.now.run.error ? { nowError: r.now.run.error } : {}),
        },
        (_key, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? clean(v) : v),
        2,
      )}\n`,
    );
    return;
  }
  const verdict = (v: import('@personae/d100').D100AttackVerdict | null, refused?: string) =>
    !v ? `refused: ${refused}` : `${v.fumble ? 'fumble' : v.hit ? (v.critical ? 'critical hit' : 'hit') : v.repelled ? 'repelled' : 'miss'}${v.location ? ` (${v.location})` : ''}${v.wounds.length ? `, ${v.wounds.join(', ')}` : ''}; hit ${chance(v.odds?.hit)}`;
  const lines = [`${scenario.title}: the same dice under ${nowLabel} (recorded under ${thenLabel}, seed ${seed})`, ''];
  for (const a of r.attacks) {
    lines.push(`  [${a.action}] ${a.attacker} attacks ${a.defender}, dice ${a.dice.join(', ')}${a.changed ? '  (changed)' : ''}`);
    lines.push(`      then: ${verdict(a.then)}`, `      now:  ${verdict(a.now, a.refused)}${a.extraDice ? ` (${a.extraDice} more dice drawn)` : ''}`);
  }
  lines.push('', `${changed} of ${r.attacks.length} attacks come out differently.`);
  if (r.now.run.error) lines.push(`Played again under ${nowLabel}, action ${r.now.run.error.action} is refused (${r.now.run.error.code}): ${r.now.run.error.message}; the run stops there.`);
  writeLines(io.stdout, lines);
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
