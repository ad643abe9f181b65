import type { OptionDescriptor } from '@personae/core';

/**
 * The question of a d100 or Lucidity roller as its address holds it: the preset, options changed, the
 * fields of the question, the presets compared and the chart shown. A value the page cannot use is left
 * at its default and named (field, value, what is allowed); reading a link never fails.
 */

export type FieldSpec =
  | { readonly key: string; readonly label: string; readonly kind: 'int'; readonly min: number; readonly max: number; readonly default: number; readonly nullable?: boolean }
  | { readonly key: string; readonly label: string; readonly kind: 'choice'; readonly choices: readonly string[]; readonly default: string }
  | { readonly key: string; readonly label: string; readonly kind: 'text'; readonly default: string; readonly check: (value: string) => string | null }
  | { readonly key: string; readonly label: string; readonly kind: 'flag'; readonly default: boolean };

export type FieldValue = number | string | boolean | null;

export interface RollerQuestion {
  readonly preset: string;
  /** Options changed from the preset, in the order given. */
  readonly options: readonly (readonly [string, string | number | boolean])[];
  readonly fields: Readonly<Record<string, FieldValue>>;
  /** Other presets drawn on the chart with it. */
  readonly compare: readonly string[];
  /** The chart's view; '' draws none. */
  readonly chart: string;
}

export interface RollerRules {
  readonly presets: readonly string[];
  readonly options: readonly OptionDescriptor[];
  readonly fields: readonly FieldSpec[];
  readonly views: readonly (readonly [string, string])[];
  /** Throws (a RuleError naming the option) when the options are refused. */
  resolve(preset: string, overrides: Readonly<Record<string, unknown>>): unknown;
}

export function defaultQuestion(rules: RollerRules): RollerQuestion {
  return { preset: rules.presets[0]!, options: [], fields: Object.fromEntries(rules.fields.map((f) => [f.key, f.default])), compare: [], chart: '' };
}

/** A field's value from the text of a link or a form, or what is wrong with it. */
export function fieldValue(f: FieldSpec, text: string): { value: FieldValue } | { problem: string } {
  switch (f.kind) {
    case 'int': {
      if (text === '' && f.nullable) return { value: null };
      const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
      return Number.isInteger(n) && n >= f.min && n <= f.max ? { value: n } : { problem: `${f.key}: "${text}" is not a whole number from ${f.min} to ${f.max}${f.nullable ? ' (or empty)' : ''}` };
    }
    case 'choice':
      return f.choices.includes(text) ? { value: text } : { problem: `${f.key}: "${text}" is not one of ${f.choices.join(', ')}` };
    case 'flag':
      return text === '1' || text === 'true' ? { value: true } : text === '0' || text === 'false' ? { value: false } : { problem: `${f.key}: "${text}" is not 1 or 0` };
    case 'text': {
      const problem = f.check(text);
      return problem ? { problem: `${f.key}: ${problem}` } : { value: text };
    }
  }
}

/** An option's value from its text, by the option's kind. */
export function optionValue(d: OptionDescriptor, text: string): string | number | boolean {
  if (d.kind === 'boolean') return text === 'true';
  if (d.kind === 'integer' || d.kind === 'number') return Number(text);
  return text;
}

function refusal(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function readRollerQuery(search: string, rules: RollerRules): { question: RollerQuestion; problems: string[] } {
  const params = new URLSearchParams(search);
  const problems: string[] = [];
  const base = defaultQuestion(rules);
  let preset = base.preset;
  const asked = params.get('rules');
  if (asked !== null) {
    if (rules.presets.includes(asked)) preset = asked;
    else problems.push(`rules: "${asked}" is not a preset; the presets are ${rules.presets.join(', ')}`);
  }
  const options: [string, string | number | boolean][] = [];
  for (const word of params.getAll('option')) {
    const eq = word.indexOf('=');
    const d = rules.options.find((o) => o.name === word.slice(0, eq));
    if (eq < 1 || !d) {
      problems.push(`option: "${word}" is not NAME=VALUE with an option of these rules`);
      continue;
    }
    const value = optionValue(d, word.slice(eq + 1));
    try {
      rules.resolve(preset, Object.fromEntries([...options, [d.name, value]]));
      options.push([d.name, value]);
    } catch (e) {
      problems.push(`option: ${refusal(e)}`);
    }
  }
  const fields: Record<string, FieldValue> = { ...base.fields };
  for (const f of rules.fields) {
    const text = params.get(f.key);
    if (text === null) continue;
    const r = fieldValue(f, text);
    if ('problem' in r) problems.push(r.problem);
    else fields[f.key] = r.value;
  }
  const compare: string[] = [];
  for (const p of params.getAll('compare')) {
    if (rules.presets.includes(p) && p !== preset && !compare.includes(p)) compare.push(p);
    else problems.push(`compare: "${p}" is not another preset; the presets are ${rules.presets.join(', ')}`);
  }
  let chart = '';
  const view = params.get('chart');
  if (view !== null) {
    if (rules.views.some(([k]) => k === view)) chart = view;
    else problems.push(`chart: "${view}" is not one of ${rules.views.map(([k]) => k).join(', ')}`);
  }
  return { question: { preset, options, fields, compare, chart }, problems };
}

/** The query of a question: only what differs from the defaults, so a plain question has a short link. */
export function rollerQuery(q: RollerQuestion, rules: RollerRules): string {
  const params = new URLSearchParams();
  if (q.preset !== rules.presets[0]) params.set('rules', q.preset);
  for (const [name, value] of q.options) params.append('option', `${name}=${String(value)}`);
  for (const f of rules.fields) {
    const v = q.fields[f.key];
    if (v === f.default) continue;
    params.set(f.key, v === null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  for (const p of q.compare) params.append('compare', p);
  if (q.chart) params.set('chart', q.chart);
  const text = params.toString();
  return text ? `?${text}` : '';
}
