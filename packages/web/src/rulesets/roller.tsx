import { useEffect, useMemo, useState } from 'preact/hooks';
import { BarChart } from '../ui/CompareChart';
import { Frame } from '../ui/Frame';
import { Check, NumberField, SelectField, TextField } from '../ui/fields';
import { LinkBox } from '../ui/TableSettings';
import { LinkProblems, replaceAddress } from '../ui/RollerPage';
import { fieldValue, optionValue, readRollerQuery, rollerQuery, type FieldSpec, type FieldValue, type RollerQuestion, type RollerRules } from './roller-query';

/** What a ruleset gives its free-standing roller: the question's fields and rules, and its exact odds. */
export interface RollerSpec<O> extends RollerRules {
  readonly ruleset: 'd100' | 'lucidity';
  readonly title: string;
  /** The exact odds of the question under resolved options; throws a RuleError the page shows. */
  odds(fields: Readonly<Record<string, FieldValue>>, options: unknown): O;
  /** The figures in words. */
  figures(odds: O): string;
  groups(entries: readonly { odds: O }[], chart: string): { label: string; values: number[] }[];
  /** Said when the chart has nothing to draw. */
  readonly empty: string;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The odds of the question under one preset and options changed, or what refuses them. */
function oddsUnder<O>(spec: RollerSpec<O>, q: RollerQuestion, preset: string, changed: boolean): O | { error: string } {
  try {
    return spec.odds(q.fields, spec.resolve(preset, changed ? Object.fromEntries(q.options) : {}));
  } catch (e) {
    return { error: message(e) };
  }
}

/** One field of the question, with what is wrong with the value being typed. */
function Field(props: { f: FieldSpec; value: FieldValue; id: string; onChange: (v: FieldValue) => void }) {
  const { f } = props;
  const [text, setText] = useState(props.value === null ? '' : String(props.value));
  const [problem, setProblem] = useState<string | null>(null);
  if (f.kind === 'choice') return <SelectField id={props.id} label={f.label} value={String(props.value)} options={f.choices.map((c) => ({ value: c, label: c }))} onChange={props.onChange} />;
  if (f.kind === 'flag') return <Check id={props.id} label={f.label} checked={props.value === true} onChange={props.onChange} />;
  if (f.kind === 'int' && !f.nullable) return <NumberField id={props.id} label={f.label} value={props.value as number} min={f.min} max={f.max} onChange={props.onChange} />;
  return (
    <TextField
      id={props.id}
      label={f.label}
      value={text}
      problems={problem ? [{ path: f.key, message: problem }] : []}
      onInput={(t) => {
        setText(t);
        const r = fieldValue(f, t.trim());
        setProblem('problem' in r ? r.problem : null);
        if ('value' in r) props.onChange(r.value);
      }}
    />
  );
}

/**
 * The roller of a d100 or Lucidity attack without a table: exact odds, the rule sets compared on one chart
 * (each outcome, or at least / at most k), and the whole question in the address, so a link opens it.
 */
export function RulesetRollerPage<O>(props: { spec: RollerSpec<O> }) {
  const { spec } = props;
  const first = useMemo(() => readRollerQuery(window.location.search, spec), [spec]);
  const [q, setQ] = useState<RollerQuestion>(first.question);
  const [optionName, setOptionName] = useState(spec.options[0]?.name ?? '');
  const [optionText, setOptionText] = useState('');
  const [optionError, setOptionError] = useState<string | null>(null);
  const path = `/roller/${spec.ruleset}${rollerQuery(q, spec)}`;
  useEffect(() => replaceAddress(path), [path]);
  const set = (patch: Partial<RollerQuestion>) => setQ((x) => ({ ...x, ...patch }));
  const own = useMemo(() => oddsUnder(spec, q, q.preset, true), [q]);
  const label = `${q.preset}${q.options.length ? ` with ${q.options.map(([n, v]) => `${n}=${String(v)}`).join(', ')}` : ''}`;
  const entries = useMemo(() => {
    if (!q.chart || 'error' in (own as object)) return null;
    const out = [{ label, odds: own as O }];
    for (const p of q.compare) {
      const o = oddsUnder(spec, q, p, false);
      if (!('error' in (o as object))) out.push({ label: p, odds: o as O });
    }
    return out;
  }, [q, own]);
  const descriptor = spec.options.find((o) => o.name === optionName);
  const addOption = () => {
    if (!descriptor) return;
    const value = optionValue(descriptor, optionText.trim());
    const next = [...q.options.filter(([n]) => n !== descriptor.name), [descriptor.name, value] as const];
    try {
      spec.resolve(q.preset, Object.fromEntries(next));
      setOptionError(null);
      set({ options: next });
    } catch (e) {
      setOptionError(message(e));
    }
  };
  const title = spec.views.find(([k]) => k === q.chart)?.[1] ?? '';
  return (
    <Frame where={spec.title}>
      <main id="main">
        <div class="spread">
          <h1>{spec.title}</h1>
          <SelectField id="rr-preset" label="Rules" value={q.preset} options={spec.presets.map((p) => ({ value: p, label: p }))} onChange={(preset) => set({ preset, compare: q.compare.filter((p) => p !== preset) })} />
        </div>
        <p class="muted">Declare the attack and read its exact odds, under these rules and others. The address holds the whole question: share it and it opens the same, with no table needed.</p>
        <LinkProblems id="rr-link-problems" problems={first.problems} />
        <section class="card stack" aria-labelledby="rr-question-h">
          <h2 id="rr-question-h">The attack</h2>
          <div class="row">
            {spec.fields.map((f) => (
              <Field key={f.key} f={f} id={`rr-${f.key}`} value={q.fields[f.key] ?? null} onChange={(v) => set({ fields: { ...q.fields, [f.key]: v } })} />
            ))}
          </div>
          <div class="row" aria-label="Options changed from the preset">
            <SelectField id="rr-option-name" label="Option" value={optionName} options={spec.options.map((o) => ({ value: o.name, label: o.name }))} onChange={(n) => setOptionName(n)} />
            {descriptor?.values || descriptor?.kind === 'boolean' ? (
              <SelectField id="rr-option-value" label="Value" value={optionText} options={[{ value: '', label: '(choose)' }, ...(descriptor.values ?? ['true', 'false']).map((v) => ({ value: v, label: v }))]} onChange={setOptionText} />
            ) : (
              <TextField id="rr-option-value" label="Value" value={optionText} onInput={setOptionText} />
            )}
            <button type="button" onClick={addOption} disabled={optionText === ''}>
              Change the option
            </button>
          </div>
          {optionError && (
            <p class="error-text" role="alert">
              {optionError}
            </p>
          )}
          {q.options.length > 0 && (
            <ul id="rr-options" class="small">
              {q.options.map(([n, v]) => (
                <li key={n}>
                  {n} = {String(v)}{' '}
                  <button type="button" class="quiet" onClick={() => set({ options: q.options.filter(([m]) => m !== n) })}>
                    Remove {n}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <p id="rr-odds" aria-live="polite">
            {'error' in (own as object) ? (own as { error: string }).error : `Exact odds under ${label}: ${spec.figures(own as O)}`}
          </p>
          <LinkBox id="rr-link" label="Link to this question" link={`${window.location.origin}${path}`} hint="Opens this attack, its rules and the comparison, with no table needed." />
        </section>
        <section class="card stack" aria-labelledby="rr-compare-h">
          <h2 id="rr-compare-h">Compare rule sets</h2>
          <div class="row" role="group" aria-label="Presets to compare">
            {spec.presets
              .filter((p) => p !== q.preset)
              .map((p) => (
                <Check key={p} id={`rr-compare-${p}`} label={p} checked={q.compare.includes(p)} onChange={(on) => set({ compare: on ? [...q.compare, p] : q.compare.filter((x) => x !== p) })} />
              ))}
          </div>
          <SelectField id="rr-chart" label="Chart" value={q.chart} options={[{ value: '', label: 'none' }, ...spec.views.map(([value, text]) => ({ value, label: text }))]} onChange={(chart) => set({ chart })} />
          {entries && q.chart && (
            <figure class="stack compare-chart" style={{ margin: 0 }}>
              <BarChart id="rr-chart-bars" title={title} rules={entries.map((e) => e.label)} groups={spec.groups(entries, q.chart)} empty={spec.empty} />
            </figure>
          )}
        </section>
      </main>
    </Frame>
  );
}
