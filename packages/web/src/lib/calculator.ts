import { declaredOdds, emptyRoller, resolveSide, type Modifier, type RollerInput, type SideInput } from './roller';
import { allowedValues, DIFFICULTIES, OPTION_DEFINITIONS, PRESETS, isPreset, oddsDifferences, parseOptionAssignment, ruleSetsToCompare, tableOptions, type ChallengeOdds, type OddsDifference, type OptionName, type Preset, type TableOptions } from './rules';

/**
 * The odds calculator's question as a link: the rules (a preset and changed options), both pools with
 * their modifiers and helpers, the difficulty, what is at stake, the rule sets to compare and the chart
 * shown. Reading a link never throws: a value that cannot be used is left at its default and named.
 */

/** The options that change a challenge's odds or how its result reads (personae-core-2011.txt "The Challenge"). */
export const CALCULATOR_OPTIONS = ['criticals', 'fullTie', 'natTenLowerTotal', 'natTenBothTied', 'minimumPool', 'assist', 'unopposed', 'grades'] as const satisfies readonly OptionName[];
export type CalculatorOption = (typeof CALCULATOR_OPTIONS)[number];

export const CHART_VIEWS = ['outcomes', 'criticals-at-least', 'criticals-at-most'] as const;
export type ChartView = (typeof CHART_VIEWS)[number];

export type OptionChange = readonly [CalculatorOption, string | number | boolean];

export interface Calculator {
  preset: Preset;
  /** Options changed from the preset, in the order they were set. */
  changes: OptionChange[];
  input: RollerInput;
  /** Other presets to compare with, each taken with the changed options. */
  comparePresets: Preset[];
  /** Variants to compare: the rules with one more option changed. */
  compareChanges: OptionChange[];
  chart: ChartView;
}

export function newCalculator(): Calculator {
  return { preset: 'core-2011', changes: [], input: emptyRoller(), comparePresets: [], compareChanges: [], chart: 'outcomes' };
}

export const MAX_POOL = 30;
const MAX_MODIFIERS = 10;
const MAX_HELPERS = 10;

/** The changed options as the rules library takes them; a later change of one option wins. */
export function overridesOf(changes: readonly OptionChange[]): Partial<TableOptions> {
  return Object.fromEntries(changes) as Partial<TableOptions>;
}

export function calculatorOptions(c: Pick<Calculator, 'preset' | 'changes'>): TableOptions {
  return tableOptions(c.preset, overridesOf(c.changes));
}

const changeText = ([name, value]: OptionChange) => `${name}=${String(value)}`;
const modifierText = (m: Modifier) => `${m.value}:${m.source}`;

function writeSide(q: URLSearchParams, key: 'a' | 'r', s: SideInput, fresh: SideInput): void {
  if (s.name !== fresh.name) q.set(`${key}.name`, s.name);
  q.set(`${key}.dice`, String(s.dice));
  if (s.bonus !== 0) q.set(`${key}.bonus`, String(s.bonus));
  for (const m of s.modifiers) q.append(`${key}.mod`, modifierText(m));
  if (s.assistants.length > 0) q.set(`${key}.help`, String(s.assistants.length));
}

/** The calculator as a query string ("?rules=srd-v4&a.dice=4&…"); defaults are left out where that is unambiguous. */
export function calculatorQuery(c: Calculator): string {
  const q = new URLSearchParams();
  const fresh = emptyRoller();
  q.set('rules', c.preset);
  for (const ch of c.changes) q.append('option', changeText(ch));
  writeSide(q, 'a', c.input.actor, fresh.actor);
  if (c.input.mode === 'unopposed') {
    q.set('mode', 'unopposed');
    q.set('difficulty', String(c.input.difficulty));
  } else writeSide(q, 'r', c.input.reactor, fresh.reactor);
  if (c.input.purpose.trim()) q.set('stake', c.input.purpose.trim());
  for (const p of c.comparePresets) q.append('compare', p);
  for (const ch of c.compareChanges) q.append('compare-option', changeText(ch));
  if (c.chart !== 'outcomes') q.set('chart', c.chart);
  return `?${q.toString()}`;
}

/** One option change read from "name=value", checked against the options the calculator offers. */
export function readChange(text: string, field: string): OptionChange {
  const [name, value] = parseOptionAssignment(text);
  if (!(CALCULATOR_OPTIONS as readonly string[]).includes(name)) throw new Error(`${field} "${text}": the calculator changes only ${CALCULATOR_OPTIONS.join(', ')}`);
  const allowed = allowedValues(OPTION_DEFINITIONS[name].schema);
  if (allowed && !allowed.includes(value)) throw new Error(`${field} "${text}": ${name} is one of ${allowed.map(String).join(', ')}`);
  return [name as CalculatorOption, value as OptionChange[1]];
}

function wholeNumber(q: URLSearchParams, field: string, min: number, max: number, fallback: number, problems: string[]): number {
  const raw = q.get(field);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    problems.push(`${field} "${raw}" is not a whole number from ${min} to ${max}; it stays ${fallback}.`);
    return fallback;
  }
  return n;
}

function readSide(q: URLSearchParams, key: 'a' | 'r', fresh: SideInput, problems: string[]): SideInput {
  const name = (q.get(`${key}.name`) ?? fresh.name).trim().slice(0, 80) || fresh.name;
  const dice = wholeNumber(q, `${key}.dice`, 0, MAX_POOL, fresh.dice, problems);
  const bonus = wholeNumber(q, `${key}.bonus`, -MAX_POOL, MAX_POOL, fresh.bonus, problems);
  const modifiers: Modifier[] = [];
  for (const text of q.getAll(`${key}.mod`).slice(0, MAX_MODIFIERS)) {
    const m = /^(-?\d{1,2}):(.*)$/s.exec(text);
    const value = m ? Number(m[1]) : NaN;
    if (!m || Math.abs(value) > 20) problems.push(`${key}.mod "${text}" is not value:reason with a whole value from -20 to 20; it is left out.`);
    else modifiers.push({ value, source: m[2]!.slice(0, 100) });
  }
  const helpers = key === 'a' ? wholeNumber(q, 'a.help', 0, MAX_HELPERS, 0, problems) : 0;
  return { ...fresh, name, dice, bonus, modifiers, assistants: Array.from({ length: helpers }, (_, i) => `helper ${i + 1}`) };
}

/** The calculator a query string describes, and what in it could not be used (field, value and why). */
export function readCalculatorQuery(search: string): { calculator: Calculator; problems: string[] } {
  const q = new URLSearchParams(search);
  const problems: string[] = [];
  const c = newCalculator();
  const rules = q.get('rules');
  if (rules !== null) {
    if (isPreset(rules)) c.preset = rules;
    else problems.push(`rules "${rules}" is not a preset (${PRESETS.join(', ')}); it stays ${c.preset}.`);
  }
  const changes = (field: string): OptionChange[] =>
    q.getAll(field).flatMap((text) => {
      try {
        return [readChange(text, field)];
      } catch (e) {
        problems.push(`${e instanceof Error ? e.message : String(e)}; it is left out.`);
        return [];
      }
    });
  c.changes = changes('option');
  const fresh = emptyRoller();
  const unopposed = q.get('mode') === 'unopposed';
  if (q.has('mode') && !unopposed && q.get('mode') !== 'opposed') problems.push(`mode "${q.get('mode')}" is neither opposed nor unopposed; it stays opposed.`);
  const difficulty = wholeNumber(q, 'difficulty', 0, 30, fresh.difficulty, problems);
  if (!DIFFICULTIES.some((d) => d.value === difficulty)) problems.push(`difficulty "${difficulty}" is none of ${DIFFICULTIES.map((d) => d.value).join(', ')}; it stays ${fresh.difficulty}.`);
  c.input = {
    ...fresh,
    actor: readSide(q, 'a', fresh.actor, problems),
    reactor: readSide(q, 'r', fresh.reactor, problems),
    mode: unopposed ? 'unopposed' : 'opposed',
    difficulty: DIFFICULTIES.some((d) => d.value === difficulty) ? difficulty : fresh.difficulty,
    purpose: (q.get('stake') ?? '').slice(0, 300),
  };
  for (const p of q.getAll('compare')) {
    if (!isPreset(p)) problems.push(`compare "${p}" is not a preset (${PRESETS.join(', ')}); it is left out.`);
    else if (!c.comparePresets.includes(p)) c.comparePresets.push(p);
  }
  c.compareChanges = changes('compare-option');
  const chart = q.get('chart');
  if (chart !== null) {
    if ((CHART_VIEWS as readonly string[]).includes(chart)) c.chart = chart as ChartView;
    else problems.push(`chart "${chart}" is none of ${CHART_VIEWS.join(', ')}; it stays ${c.chart}.`);
  }
  return { calculator: c, problems };
}

export interface ComparedRules {
  label: string;
  options: TableOptions;
  odds: ChallengeOdds;
}

/**
 * The calculator's question under each rule set it compares: the calculator's own rules first, then
 * each preset and each variant, with the sides read under each rule set's options (the assist option
 * changes a side's dice or result), and each one's differences from the first. Null without a comparison.
 */
export function compareCalculator(c: Calculator): { entries: ComparedRules[]; differences: OddsDifference[] } | null {
  if (c.comparePresets.length === 0 && c.compareChanges.length === 0) return null;
  const presets = c.comparePresets.length > 0 ? [c.preset, ...c.comparePresets.filter((p) => p !== c.preset)] : [];
  const sets = ruleSetsToCompare({ preset: c.preset, overrides: overridesOf(c.changes) }, presets, c.compareChanges);
  const entries = sets.map((s) => {
    const actor = resolveSide(c.input.actor, [], s.options, 'actor');
    const reactor = c.input.mode === 'opposed' ? resolveSide(c.input.reactor, [], s.options, 'reactor') : null;
    return { label: s.label, options: s.options, odds: declaredOdds(actor, reactor, c.input.difficulty, s.options) };
  });
  return { entries, differences: oddsDifferences(entries) };
}
