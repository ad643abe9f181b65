import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { seededDice } from '@personae/dice';
import { isRuleError } from '@personae/core';
import { describeLucidityEvent, parseLucidityScenario, parseSheetText, replayLucidityUnderRules, runLucidityScenario, scenarioSummary, type LucidityScenario } from '@personae/lucidity';
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
  if (flags.rules !== undefined || (flags.option ?? []).length > 0) return replayLucidityRules(scenario, sheets, seed, flags, io);
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
  if (flags.rules !== undefined || (flags.option ?? []).length > 0) return replayD100Rules(scenario, sheets, seed, flags, io);
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

/** What `--rules` / `--option` give for a scenario of another ruleset, ready to print. */
interface RulesReplayReport<A extends { readonly action: number; readonly changed: boolean; readonly refused?: string; readonly extraDice: number }> {
  readonly ruleset: string;
  readonly title: string;
  readonly seed: number;
  readonly then: { readonly preset: string; readonly options: Readonly<Record<string, unknown>>; readonly state: unknown; readonly error?: unknown };
  readonly now: { readonly preset: string; readonly options: Readonly<Record<string, unknown>>; readonly state: unknown; readonly error?: { readonly action: number; readonly code: string; readonly message: string } };
  readonly attacks: readonly A[];
  /** The attack's header line, and one verdict in words (null: refused by the new rules). */
  readonly header: (a: A) => string;
  readonly verdict: (a: A, which: 'then' | 'now') => string | null;
}

/** Prints every attack then and now (text or --json), and how the scenario played again ended. */
function printRulesReplay<A extends { readonly action: number; readonly changed: boolean; readonly refused?: string; readonly extraDice: number }>(r: RulesReplayReport<A>, flags: ReplayFlags, io: CliIo): void {
  const label = (p: string, o: Readonly<Record<string, unknown>>) => [p, ...Object.entries(o).map(([k, v]) => `${k}=${String(v)}`)].join(' ');
  const thenLabel = label(r.then.preset, r.then.options);
  const nowLabel = label(r.now.preset, r.now.options);
  const changed = r.attacks.filter((a) => a.changed).length;
  if (flags.json) {
    const json = {
      command: 'replay',
      ruleset: r.ruleset,
      title: r.title,
      seed: r.seed,
      then: { rules: thenLabel, preset: r.then.preset, options: r.then.options },
      now: { rules: nowLabel, preset: r.now.preset, options: r.now.options },
      attacks: r.attacks,
      changed,
      state: { then: r.then.state, now: r.now.state },
      ...(r.then.error ? { thenError: r.then.error } : {}),
      ...(r.now.error ? { nowError: r.now.error } : {}),
    };
    io.stdout(`${JSON.stringify(json, (_key, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? clean(v) : v), 2)}\n`);
    return;
  }
  const lines = [`${r.title}: the same dice under ${nowLabel} (recorded under ${thenLabel}, seed ${r.seed})`, ''];
  for (const a of r.attacks) {
    lines.push(`  [${a.action}] ${r.header(a)}${a.changed ? '  (changed)' : ''}`);
    lines.push(`      then: ${r.verdict(a, 'then')}`, `      now:  ${r.verdict(a, 'now') ?? `refused: ${a.refused}`}${a.extraDice ? ` (${a.extraDice} more dice drawn)` : ''}`);
  }
  lines.push('', `${changed} of ${r.attacks.length} attacks come out differently.`);
  if (r.now.error) lines.push(`Played again under ${nowLabel}, action ${r.now.error.action} is refused (${r.now.error.code}): ${r.now.error.message}; the run stops there.`);
  writeLines(io.stdout, lines);
}

/** Runs a library replay, turning a bad preset or option (a rule error) into a usage error. */
function checkedRules<T>(replay: () => T): T {
  try {
    return replay();
  } catch (e) {
    if (e instanceof CliError || !isRuleError(e)) throw e;
    throw new CliError(`--rules/--option: ${e.message}`);
  }
}

/** `personae replay FILE --rules PRESET` for a d100 scenario: every attack then and now, with its exact odds under each. */
async function replayD100Rules(scenario: import('@personae/d100').D100Scenario, sheets: (path: string) => unknown, seed: number, flags: ReplayFlags, io: CliIo): Promise<void> {
  const { replayD100UnderRules, d100Summary } = await import('@personae/d100');
  const preset = flags.rules ?? scenario.preset;
  const options = overridesOf(flags, scenario.options);
  const r = checkedRules(() => replayD100UnderRules(scenario, sheets, seed, preset, options));
  printRulesReplay(
    {
      ruleset: 'd100',
      title: scenario.title,
      seed,
      then: { preset: scenario.preset, options: scenario.options, state: d100Summary(r.then.run), ...(r.then.run.error ? { error: r.then.run.error } : {}) },
      now: { preset, options, state: d100Summary(r.now.run), ...(r.now.run.error ? { error: r.now.run.error } : {}) },
      attacks: r.attacks,
      header: (a) => `${a.attacker} attacks ${a.defender}, dice ${a.dice.join(', ')}`,
      verdict: (a, which) => {
        const v = a[which];
        return v && `${v.fumble ? 'fumble' : v.hit ? (v.critical ? 'critical hit' : 'hit') : v.repelled ? 'repelled' : 'miss'}${v.location ? ` (${v.location})` : ''}${v.wounds.length ? `, ${v.wounds.join(', ')}` : ''}; hit ${chance(v.odds?.hit)}`;
      },
    },
    flags,
    io,
  );
}

/** `personae replay FILE --rules PRESET` for a Lucidity scenario. */
function replayLucidityRules(scenario: LucidityScenario, sheets: (path: string) => unknown, seed: number, flags: ReplayFlags, io: CliIo): void {
  const { preset: filePreset, ...fileOptions } = scenario.options as { preset?: string } & Record<string, unknown>;
  const thenPreset = filePreset ?? 'standard';
  const preset = flags.rules ?? thenPreset;
  const options = overridesOf(flags, fileOptions);
  const r = checkedRules(() => replayLucidityUnderRules(scenario, sheets, seed, preset, options));
  printRulesReplay(
    {
      ruleset: 'lucidity',
      title: scenario.title,
      seed,
      then: { preset: thenPreset, options: fileOptions, state: scenarioSummary(r.then.run), ...(r.then.run.error ? { error: r.then.run.error } : {}) },
      now: { preset, options, state: scenarioSummary(r.now.run), ...(r.now.run.error ? { error: r.now.run.error } : {}) },
      attacks: r.attacks,
      header: (a) => `${a.attacker} attacks ${a.target}`,
      verdict: (a, which) => {
        const v = a[which];
        return v && `${v.hit ? 'hit' : 'miss'} (total ${v.total}), ${v.damageTaken} damage taken; hit ${chance(v.odds?.hit)}, expected damage ${v.odds ? v.odds.expectedDamage.toFixed(3) : '-'}`;
      },
    },
    flags,
    io,
  );
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
