import { useEffect, useMemo, useState } from 'preact/hooks';
import { cryptoDice, type DiceSource } from '@personae/dice';
import { CALCULATOR_OPTIONS, CHART_VIEWS, calculatorOptions, calculatorQuery, compareCalculator, readCalculatorQuery, type Calculator, type CalculatorOption, type ChartView, type OptionChange } from '../lib/calculator';
import { OPTION_LABEL } from '../lib/option-labels';
import { PRESET_LABEL } from '../lib/presets';
import { OPTION_DEFINITIONS, PRESETS, allowedValues, freePoolSide, poolDice, resolveChallenge, resolveUnopposed, difficultyLabel, type ChallengeResult } from '../lib/rules';
import type { ResolvedSide } from '../lib/roller';
import { CompareChart } from './CompareChart';
import { Frame } from './Frame';
import { ChallengeView } from './Dice';
import { Check, SelectField } from './fields';
import { Roller, type RollCommand } from './Roller';
import { LinkBox } from './TableSettings';

const CHART_LABEL: Record<ChartView, string> = {
  outcomes: 'Outcomes',
  'criticals-at-least': 'Criticals, at least',
  'criticals-at-most': 'Criticals, at most',
};

/** The calculator's link for the page's address: this page with the question in its query. */
function calculatorLink(c: Calculator): string {
  return `${window.location.origin}/roller${calculatorQuery(c)}`;
}

/**
 * The roller without a table: the same odds and explanations, rolled in this browser. The whole question
 * (rules, pools, comparison and chart) lives in the address, so a link opens the same question.
 */
export function RollerPage() {
  const first = useMemo(() => readCalculatorQuery(window.location.search), []);
  const [calc, setCalc] = useState<Calculator>(first.calculator);
  const options = useMemo(() => calculatorOptions(calc), [calc.preset, calc.changes]);
  const compared = useMemo(() => {
    try {
      return { ok: compareCalculator(calc) } as const;
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) } as const;
    }
  }, [calc]);
  const [history, setHistory] = useState<{ id: number; result: ChallengeResult; purpose: string }[]>([]);
  const dice: DiceSource = useMemo(() => cryptoDice(), []);
  const link = calculatorLink(calc);
  useEffect(() => {
    // The address follows every change, without a new history entry per keystroke.
    replaceAddress(`/roller${calculatorQuery(calc)}`);
  }, [link]);
  const set = (patch: Partial<Calculator>) => setCalc((c) => ({ ...c, ...patch }));

  const roll = async ({ command, dice: typed }: RollCommand, sides: { actor: ResolvedSide; reactor: ResolvedSide | null }) => {
    // Dice typed in fill their named pools, as at a table; the rest are rolled here.
    const entered = poolDice(typed, dice);
    const result =
      'difficulty' in command || !sides.reactor
        ? resolveUnopposed({ player: freePoolSide(sides.actor), difficulty: { value: calc.input.difficulty, label: difficultyLabel(calc.input.difficulty) } }, entered, options)
        : resolveChallenge({ actor: freePoolSide(sides.actor), reactor: freePoolSide(sides.reactor) }, entered, options);
    setHistory((h) => [{ id: (h[0]?.id ?? 0) + 1, result, purpose: command.purpose ?? '' }, ...h].slice(0, 50));
    return result;
  };

  return (
    <Frame where="Odds and dice roller">
      <main id="main">
        <div class="spread">
          <h1>Odds and dice roller</h1>
          <SelectField id="r-preset" label="Rules" value={calc.preset} options={PRESETS.map((p) => ({ value: p, label: p }))} onChange={(preset) => set({ preset })} />
        </div>
        <p class="muted">Declare both sides, read the exact odds, then roll here or enter the dice you rolled at the table. The address holds the whole question: share it and it opens the same.</p>
        <LinkProblems id="r-link-problems" problems={first.problems} />
        <div class="table-layout">
          <section class="card stack">
            <OptionChanges id="r-option" title="Options changed from the preset" changes={calc.changes} onChange={(changes) => set({ changes })} />
            <Roller idPrefix="r" options={options} characters={[]} mine={[]} physicalDice gm={false} onRoll={roll} input={calc.input} onInput={(f) => setCalc((c) => ({ ...c, input: f(c.input) }))} />
            <LinkBox id="r-link" label="Link to this question" link={link} hint="Opens these pools, rules and comparison, with no table needed." />
          </section>
          <section class="card" aria-labelledby="r-log-h">
            <h2 id="r-log-h">Rolls</h2>
            <div aria-live="polite" class="sr-only">
              {history[0] ? `${history[0].result.actor.name}: ${history[0].result.outcome}` : ''}
            </div>
            {history.length === 0 ? (
              <p class="muted">No rolls yet.</p>
            ) : (
              <ol class="log" reversed>
                {history.map((h) => (
                  <li key={h.id}>
                    {h.purpose && <p class="small">{h.purpose}</p>}
                    <ChallengeView result={h.result} small graded={options.grades === 'srd-v4'} />
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
        <section class="card stack compare-card" aria-labelledby="r-compare-h">
          <h2 id="r-compare-h">Compare rule sets</h2>
          <p class="small muted">The same pools under other presets, or with one option changed, on one chart.</p>
          <div class="row" role="group" aria-label="Presets to compare">
            {PRESETS.filter((p) => p !== calc.preset).map((p) => (
              <Check
                key={p}
                id={`r-compare-${p}`}
                label={`${p} (${PRESET_LABEL[p]})`}
                checked={calc.comparePresets.includes(p)}
                onChange={(on) => set({ comparePresets: on ? [...calc.comparePresets, p] : calc.comparePresets.filter((x) => x !== p) })}
              />
            ))}
          </div>
          <OptionChanges id="r-vary" title="Variants: these rules with one option changed" changes={calc.compareChanges} onChange={(compareChanges) => set({ compareChanges })} each />
          {'error' in compared ? (
            <p class="error-text" role="alert">
              {compared.error}
            </p>
          ) : compared.ok ? (
            <>
              <div class="row">
                <SelectField id="r-chart" label="Chart" value={calc.chart} options={CHART_VIEWS.map((v) => ({ value: v, label: CHART_LABEL[v] }))} onChange={(chart) => set({ chart })} />
              </div>
              <CompareChart id="r-compare-chart" entries={compared.ok.entries} differences={compared.ok.differences} view={calc.chart} />
            </>
          ) : (
            <p class="muted small">Tick a preset or add a variant to compare.</p>
          )}
        </section>
      </main>
    </Frame>
  );
}

/** What a calculator's link held that the page could not use, each named with what is allowed. */
export function LinkProblems(props: { id: string; problems: readonly string[] }) {
  if (props.problems.length === 0) return null;
  return (
    <div class="notice warn" id={props.id} role="alert">
      <p>Some of this link could not be used:</p>
      <ul>
        {props.problems.map((p, i) => (
          <li key={i}>{p}</li>
        ))}
      </ul>
    </div>
  );
}

/** Rewrites the address without a new history entry. */
export function replaceAddress(url: string): void {
  if (window.location.pathname + window.location.search !== url) window.history.replaceState(window.history.state, '', url);
}

const valuesOf = (name: CalculatorOption) => (allowedValues(OPTION_DEFINITIONS[name].schema) ?? []) as OptionChange[1][];

/**
 * A list of option changes with a control to add one. With `each`, every change stands alone (a
 * variant to compare); otherwise a later change of the same option replaces the earlier one.
 */
function OptionChanges(props: { id: string; title: string; changes: readonly OptionChange[]; onChange: (c: OptionChange[]) => void; each?: boolean }) {
  const [name, setName] = useState<CalculatorOption>(CALCULATOR_OPTIONS[0]);
  const values = valuesOf(name);
  const [value, setValue] = useState(String(values[0]));
  const chosen = values.find((v) => String(v) === value) ?? values[0]!;
  const add = () => {
    const kept = props.each ? props.changes.filter(([n, v]) => !(n === name && v === chosen)) : props.changes.filter(([n]) => n !== name);
    props.onChange([...kept, [name, chosen]]);
  };
  return (
    <fieldset class="stack">
      <legend>{props.title}</legend>
      {props.changes.length > 0 && (
        <ul class="stack" id={`${props.id}-list`}>
          {props.changes.map(([n, v], i) => (
            <li key={`${n}=${String(v)}`} class="row">
              <span>
                {OPTION_LABEL[n]}: <strong>{String(v)}</strong> <span class="muted small">({n})</span>
              </span>
              <button type="button" class="quiet danger" aria-label={`Remove ${n}=${String(v)}`} onClick={() => props.onChange(props.changes.filter((_, j) => j !== i))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        <SelectField
          id={`${props.id}-name`}
          label="Option"
          value={name}
          options={CALCULATOR_OPTIONS.map((o) => ({ value: o, label: OPTION_LABEL[o] }))}
          onChange={(n) => {
            setName(n);
            setValue(String(valuesOf(n)[0]));
          }}
        />
        <SelectField id={`${props.id}-value`} label="Value" value={value} options={values.map((v) => ({ value: String(v), label: String(v) }))} onChange={setValue} />
        <button type="button" id={`${props.id}-add`} onClick={add}>
          {props.each ? 'Add variant' : 'Change'}
        </button>
      </div>
    </fieldset>
  );
}
