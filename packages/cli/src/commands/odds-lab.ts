import { tableOptions, atLeast, atMost, COMPARED_FIELDS, expected, howDecided, oddsDifferences, parseOptionAssignment, PRESETS, ruleSetLabel, ruleSetsToCompare, type ChallengeOdds, type ChallengeQuery, type DecidingPairs, type OptionName, type Preset, type TableOptions, type UnopposedQuery } from '@personae/rules';
import type { Command } from 'commander';
import { chooseRuleSets } from '@personae/core';
import { collect, type Table } from '../args.js';
import { percent } from '../format/odds.js';
import { textTable, indent } from '../format/table.js';
import { toJson } from '../format/json.js';
import { CliError, writeLines, type CliIo } from '../io.js';

/** Twelve significant digits: enough for any use, without the last bits of floating-point noise. */
export function clean(p: number): number {
  return Number(p.toPrecision(12));
}

/**
 * The rule sets `--compare` and `--compare-option` ask for. Each preset in `--compare` is taken with the
 * table's own `--option` settings; each `--compare-option NAME=VALUE` is the table's rules with that one
 * option changed. Without `--compare` the table's own rules come first, so every variant is compared
 * with it.
 */
export function compareTables(table: Table, presets: string | undefined, variants: readonly string[]): Table[] {
  const changes = variants.map((text) => {
    try {
      const change = parseOptionAssignment(text) as [OptionName, unknown];
      tableOptions(table.preset, { ...table.overrides, [change[0]]: change[1] } as Partial<TableOptions>);
      return change;
    } catch (e) {
      throw new CliError(`--compare-option "${text}": ${(e as Error).message}`);
    }
  });
  const base = { preset: table.preset, overrides: table.overrides as Partial<TableOptions> };
  const out = ruleSetsToCompare(base, presets === undefined ? [] : readPresetList(presets, '--compare'), changes).map((s) => ({ preset: s.preset, options: s.options, overrides: s.overrides as Table['overrides'] }));
  if (out.length < 2) throw new CliError('--compare needs at least two rule sets: name two presets (--compare core-2011,srd-v4) or add --compare-option NAME=VALUE');
  return out;
}

/** A comma-separated list of names from `known` ("core-2011,srd-v4"), each checked; `flag` names where it was given. */
export function readNameList(text: string, flag: string, known: readonly string[]): string[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new CliError(`${flag}: name at least one rules preset, e.g. ${flag} ${known.join(',')}`);
  for (const name of names) if (!known.includes(name)) throw new CliError(`${flag}: unknown rules preset "${name}"; known presets: ${known.join(', ')}`);
  return names;
}

/** A comma-separated list of Personae rules presets ("core-2011,srd-v4"), each checked; `flag` names where it was given. */
export function readPresetList(text: string, flag: string): Preset[] {
  return readNameList(text, flag, PRESETS) as Preset[];
}

/** One rule set of a comparison: a preset, the options set on top of it, and what they resolve to. */
export interface RuleSet<O> {
  readonly preset: string;
  readonly options: O;
  /** Only the options set by name, as typed values. */
  readonly overrides: Readonly<Record<string, unknown>>;
}

/** How a ruleset reads its presets and options, as `--compare` and `--compare-option` need it. */
export interface RuleSetReader<O> {
  readonly presets: readonly string[];
  /** The options of a preset with overrides; throws naming what it refuses. */
  resolve(preset: string, overrides: Readonly<Record<string, unknown>>): O;
  /** NAME=VALUE as typed, into a name and a value; throws on an unknown name. */
  assignment(text: string): readonly [string, unknown];
}

/**
 * The rule sets `--compare` and `--compare-option` ask for, for the d100 and Lucidity rulesets (core's
 * `chooseRuleSets`, as `compareTables` for Personae): presets with the table's own `--option`
 * settings, then the table's rules with one option changed per `--compare-option`.
 */
export function compareRuleSets<O>(reader: RuleSetReader<O>, base: RuleSet<O>, presets: string | undefined, variants: readonly string[]): RuleSet<O>[] {
  const changes = variants.map((text) => {
    try {
      const change = reader.assignment(text);
      reader.resolve(base.preset, { ...base.overrides, [change[0]]: change[1] });
      return change;
    } catch (e) {
      throw new CliError(`--compare-option "${text}": ${(e as Error).message}`);
    }
  });
  const out = chooseRuleSets(base, presets === undefined ? [] : readNameList(presets, '--compare', reader.presets), changes, (p, o) => reader.resolve(p, o));
  if (out.length < 2) throw new CliError(`--compare needs at least two rule sets: name two presets (--compare ${reader.presets.slice(0, 2).join(',')}) or add --compare-option NAME=VALUE`);
  return out;
}

/** "core-2011", or "srd-v4 with fullTie=reroll, assist=web". */
export function tableLabel(table: { readonly preset: string; readonly overrides: Readonly<Record<string, unknown>> }): string {
  return ruleSetLabel(table);
}

/** The cumulative and summary views of a challenge's odds: criticals and the deciding pair. */
export interface OddsDistributions {
  readonly expectedCriticals: number;
  readonly reactorExpectedCriticals: number;
  /** criticalsAtLeast[k]: the chance that the actor banks k criticals or more. */
  readonly criticalsAtLeast: number[];
  readonly criticalsAtMost: number[];
  readonly reactorCriticalsAtLeast: number[];
  /** How the dice comparison was decided, exactly; absent for pools with rerolls or armor or above the exact engine's size. */
  readonly decided?: DecidingPairs;
}

/** An odds question as the odds command reads it: two sides, or one side against a difficulty. */
export type OddsQuery = { readonly kind: 'opposed'; readonly query: ChallengeQuery } | { readonly kind: 'unopposed'; readonly query: UnopposedQuery };

export function distributions(q: OddsQuery, odds: ChallengeOdds, options: TableOptions): OddsDistributions {
  // Computed exactly whenever the pools are plain, also beside a simulation.
  let decided: DecidingPairs | undefined;
  try {
    decided = howDecided(q, options);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return {
    expectedCriticals: expected(odds.criticals),
    reactorExpectedCriticals: expected(odds.reactorCriticals),
    criticalsAtLeast: atLeast(odds.criticals),
    criticalsAtMost: atMost(odds.criticals),
    reactorCriticalsAtLeast: atLeast(odds.reactorCriticals),
    ...(decided ? { decided } : {}),
  };
}

export function distributionsJson(d: OddsDistributions) {
  return {
    expectedCriticals: clean(d.expectedCriticals),
    reactorExpectedCriticals: clean(d.reactorExpectedCriticals),
    criticalsAtLeast: d.criticalsAtLeast.map(clean),
    criticalsAtMost: d.criticalsAtMost.map(clean),
    reactorCriticalsAtLeast: d.reactorCriticalsAtLeast.map(clean),
    ...(d.decided
      ? {
          decided: {
            actor: d.decided.actor.map(clean),
            reactor: d.decided.reactor.map(clean),
            actorExtraDice: clean(d.decided.actorExtraDice),
            reactorExtraDice: clean(d.decided.reactorExtraDice),
            fullTie: clean(d.decided.fullTie),
          },
        }
      : {}),
  };
}

/** Ordinal words for the first pairs: "highest", "second", ... */
function pairName(k: number): string {
  const words = ['highest', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
  return k <= words.length ? `${words[k - 1]} pair` : `pair ${k}`;
}

/** Text for `--table`: how the comparison is decided, and criticals exactly / at least / at most. */
export function distributionsText(d: OddsDistributions, names: { actor: string; reactor: string }): string[] {
  const lines: string[] = [];
  if (d.decided) {
    const rows: string[][] = [['decided on', `${names.actor} wins`, `${names.reactor} wins`, 'decided by here']];
    let cumulative = 0;
    const { actor, reactor } = d.decided;
    const last = Math.max(actor.length, reactor.length);
    for (let k = 1; k <= last; k++) {
      const restA = sum(actor.slice(k - 1));
      const restR = sum(reactor.slice(k - 1));
      // Later pairs rarely decide: past the third, once what they decide is below 0.01% they share one row.
      if (k > 3 && k < last && restA + restR < 1e-4) {
        cumulative += restA + restR;
        rows.push([`pairs ${k}-${last}`, percent(restA), percent(restR), percent(cumulative)]);
        break;
      }
      const a = actor[k - 1] ?? 0;
      const r = reactor[k - 1] ?? 0;
      cumulative += a + r;
      rows.push([pairName(k), percent(a), percent(r), percent(cumulative)]);
    }
    if (d.decided.actorExtraDice + d.decided.reactorExtraDice > 0) {
      cumulative += d.decided.actorExtraDice + d.decided.reactorExtraDice;
      rows.push(['extra dice', percent(d.decided.actorExtraDice), percent(d.decided.reactorExtraDice), percent(cumulative)]);
    }
    if (d.decided.fullTie > 0) rows.push(['full tie (every pair level)', percent(d.decided.fullTie), '', '']);
    lines.push('How the dice comparison is decided (before the table\'s natural-10 and grade rules):', ...indent(textTable(rows, ['left', 'right', 'right', 'right'])), '');
  }
  const crit: string[][] = [['criticals', 'exactly', 'at least', 'at most']];
  d.criticalsAtLeast.forEach((p, k) => {
    const exactly = p - (d.criticalsAtLeast[k + 1] ?? 0);
    crit.push([String(k), percent(exactly), percent(p), percent(d.criticalsAtMost[k] ?? 1)]);
  });
  lines.push(`${names.actor}'s criticals (expected ${d.expectedCriticals.toFixed(3)}):`, ...indent(textTable(crit, ['right', 'right', 'right', 'right'])));
  return lines;
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Each rule set's figures less the first one's, to twelve significant digits. */
export function differences(entries: readonly { label: string; odds: ChallengeOdds }[]) {
  return oddsDifferences(entries).map((d) => Object.fromEntries(Object.entries(d).map(([k, v]) => [k, typeof v === 'number' ? clean(v) : v])));
}

/** A figure a comparison lists: a chance (shown as a percentage) or a number (an expectation). */
export interface Figure {
  readonly key: string;
  readonly label: string;
  readonly kind: 'chance' | 'number';
}

/** One rule set's figures, by key. */
export interface FigureEntry {
  readonly label: string;
  readonly figures: Readonly<Record<string, number>>;
}

/** Each rule set's figures less the first one's: what changing the rules does. */
export function figureDifferences(entries: readonly FigureEntry[], fields: readonly Figure[]) {
  const [first, ...rest] = entries;
  return rest.map((e) => ({ rules: e.label, against: first!.label, ...Object.fromEntries(fields.map((f) => [f.key, clean(e.figures[f.key]! - first!.figures[f.key]!)])) }));
}

/** A comparison as text: one column per rule set, then one per difference from the first. */
export function figuresText(title: string, entries: readonly FigureEntry[], fields: readonly Figure[]): string[] {
  const header = ['', ...entries.map((e) => e.label), ...entries.slice(1).map((_, i) => `Δ ${i + 2} - 1`)];
  const shown = (f: Figure, x: number) => (f.kind === 'chance' ? percent(x) : x.toFixed(3));
  const signed = (f: Figure, d: number) => {
    if (f.kind === 'chance') return Math.abs(d) < 5e-7 ? '0' : `${d > 0 ? '+' : '-'}${percent(Math.abs(d))}`;
    return Math.abs(d) < 5e-4 ? '0' : `${d > 0 ? '+' : ''}${d.toFixed(3)}`;
  };
  const rows = fields.map((f) => [f.label, ...entries.map((e) => shown(f, e.figures[f.key]!)), ...entries.slice(1).map((e) => signed(f, e.figures[f.key]! - entries[0]!.figures[f.key]!))]);
  const legend = entries.map((e, i) => `  ${i + 1}: ${e.label}`);
  return [title, '', ...indent(textTable([header, ...rows], ['left', ...header.slice(1).map(() => 'right' as const)])), '', 'Rule sets:', ...legend];
}

/** A comparison as CSV: a header of the figures, one row per rule set. */
export function figuresCsv(entries: readonly FigureEntry[], fields: readonly Figure[]): string[] {
  return csv([['rules', ...fields.map((f) => f.key)], ...entries.map((e) => [e.label, ...fields.map((f) => e.figures[f.key]!)])]);
}

/** The figures of a Personae challenge a comparison lists. */
const CHALLENGE_FIGURES: readonly Figure[] = [...COMPARED_FIELDS.map(([key, label]) => ({ key, label, kind: 'chance' as const })), { key: 'expectedCriticals', label: 'Expected criticals', kind: 'number' }];

/** The Personae comparison as text: one column per rule set, then one per difference from the first. */
export function compareText(title: string, entries: readonly { label: string; odds: ChallengeOdds }[]): string[] {
  const figures = entries.map((e) => ({ label: e.label, figures: { ...Object.fromEntries(COMPARED_FIELDS.map(([f]) => [f, e.odds[f]])), expectedCriticals: expected(e.odds.criticals) } }));
  return figuresText(title, figures, CHALLENGE_FIGURES);
}

/** One CSV field: quoted when it holds a comma, a quote or a line break. */
function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(clean(value)) : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of CSV text (RFC 4180 quoting, "\n" line ends). */
export function csv(rows: readonly (readonly (string | number)[])[]): string[] {
  return rows.map((r) => r.map(csvField).join(','));
}

/** The CSV header and row of one query's figures. */
export function oddsCsvRows(entries: readonly { label: string; odds: ChallengeOdds }[]): string[] {
  return csv([
    ['rules', ...COMPARED_FIELDS.map(([f]) => f), 'expectedCriticals', 'method'],
    ...entries.map((e) => [e.label, ...COMPARED_FIELDS.map(([f]) => e.odds[f]), expected(e.odds.criticals), e.odds.method]),
  ]);
}

/** One odds query's answer under one rule set: as JSON, as the figures a comparison lists, as text and as CSV rows. */
export interface OddsAnswer {
  readonly json: Readonly<Record<string, unknown>>;
  readonly figures: Readonly<Record<string, number>>;
  readonly lines: readonly string[];
  readonly csv: readonly (readonly (string | number)[])[];
}

export interface CompareFlags {
  compare?: string;
  compareOption: string[];
  json?: boolean;
  csv?: boolean;
}

/**
 * An odds query of a ruleset with exact odds, alone or compared: the single answer (text, --json or
 * --csv), or with --compare / --compare-option one entry per rule set carrying the same fields as the
 * single query, and the differences from the first.
 */
export function printRuleSetOdds<O>(io: CliIo, reader: RuleSetReader<O>, base: RuleSet<O>, flags: CompareFlags, fields: readonly Figure[], title: string, answer: (options: O) => OddsAnswer): void {
  if (flags.json && flags.csv) throw new CliError('choose one of --json and --csv');
  if (flags.compare === undefined && flags.compareOption.length === 0) {
    const a = answer(base.options);
    if (flags.csv) writeLines(io.stdout, csv(a.csv));
    else if (flags.json) io.stdout(toJson(a.json));
    else writeLines(io.stdout, [...a.lines]);
    return;
  }
  const entries = compareRuleSets(reader, base, flags.compare, flags.compareOption).map((rs) => ({ label: tableLabel(rs), answer: answer(rs.options) }));
  const figures = entries.map((e) => ({ label: e.label, figures: e.answer.figures }));
  if (flags.csv) writeLines(io.stdout, figuresCsv(figures, fields));
  else if (flags.json) io.stdout(toJson({ compare: entries.map((e) => ({ label: e.label, ...e.answer.json })), differences: figureDifferences(figures, fields) }));
  else writeLines(io.stdout, figuresText(title, figures, fields));
}

/** `--compare`, `--compare-option` and `--csv` on an odds command of a ruleset with exact odds. */
export function addCompareFlags(cmd: Command, presets: readonly string[]): Command {
  return cmd
    .option('--compare <presets>', `compare rule sets: the same question under each preset, comma-separated (${presets.join(', ')})`)
    .option('--compare-option <name=value>', "compare the table's rules with this one option changed (repeatable)", collect, [])
    .option('--csv', 'print the odds table as CSV');
}
