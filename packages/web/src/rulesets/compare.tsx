import { BarChart } from '../ui/CompareChart';
import { ChoiceField } from './shared';

/**
 * Rule sets compared on a ruleset's page: one group of bars per count, one bar per rule set, for the
 * chance of at least or at most that many of something (wounds, damage), from each rule set's exact
 * distribution (count -> chance).
 */
export function countGroups(distributions: readonly Readonly<Record<number, number>>[], view: 'at-least' | 'at-most'): { label: string; values: number[] }[] {
  const most = Math.max(0, ...distributions.flatMap((d) => Object.keys(d).map(Number)));
  const share = (d: Readonly<Record<number, number>>, keep: (n: number) => boolean) => Object.entries(d).reduce((sum, [n, p]) => (keep(Number(n)) ? sum + p : sum), 0);
  // At least 0 is certain, and at most the largest count too: neither is drawn.
  if (view === 'at-least') return Array.from({ length: most }, (_, i) => i + 1).map((k) => ({ label: `${k}+`, values: distributions.map((d) => share(d, (n) => n >= k)) }));
  return Array.from({ length: most }, (_, k) => ({ label: `≤ ${k}`, values: distributions.map((d) => share(d, (n) => n <= k)) }));
}

/** The views of a rule-set comparison: each outcome, or the chance of at least / at most k of a count. */
export function countChartViews<K extends string>(count: K, outcomes: string, title: (bound: 'at least' | 'at most') => string) {
  return [
    ['outcomes', outcomes],
    [`${count}-at-least`, title('at least')],
    [`${count}-at-most`, title('at most')],
  ] as const satisfies readonly (readonly [string, string])[];
}

export type CountChartView<K extends string> = 'outcomes' | `${K}-at-least` | `${K}-at-most`;

/**
 * The bars of a rule-set comparison for the views of `countChartViews(count, ...)`: the outcome groups
 * `outcomes` gives, or one group per count from each entry's distribution (count -> chance).
 */
export function countChartGroups<E, K extends string>(count: K, outcomes: (entries: readonly E[]) => { label: string; values: number[] }[], distribution: (entry: E) => Readonly<Record<number, number>>) {
  return (entries: readonly E[], chart: CountChartView<K>): { label: string; values: number[] }[] =>
    chart === 'outcomes' ? outcomes(entries) : countGroups(entries.map(distribution), chart === `${count}-at-least` ? 'at-least' : 'at-most');
}

/**
 * The same question under the table's own rules (`preset` names them) and under each of the ruleset's
 * presets, through `oddsUnder` (null: the table's own rules); null when the viewer has no odds for it.
 */
export function underEachPreset<O extends object>(preset: string, presets: readonly string[], oddsUnder: (preset: string | null) => O | { error: string } | null): { label: string; odds: O }[] | null {
  const own = oddsUnder(null);
  if (!own || 'error' in own) return null;
  const out = [{ label: `this table (${preset})`, odds: own }];
  for (const p of presets) {
    const odds = oddsUnder(p);
    if (odds && !('error' in odds)) out.push({ label: p, odds });
  }
  return out;
}

/**
 * "Compare the rule sets" on a ruleset's page: a choice of view and, once one is chosen, the entries
 * (one per rule set) drawn on one chart. `entries` is worked out only when a view is chosen.
 */
export function RuleSetsCompared<V extends string, E extends { label: string }>(props: {
  id: string;
  views: readonly (readonly [V, string])[];
  chart: V | '';
  setChart: (c: V | '') => void;
  entries: () => readonly E[] | null;
  groups: (entries: readonly E[], chart: V) => { label: string; values: number[] }[];
  empty: string;
}) {
  const entries = props.chart ? props.entries() : null;
  const title = props.views.find(([k]) => k === props.chart)?.[1] ?? '';
  return (
    <div class="stack">
      <ChoiceField id={`${props.id}-view`} label="Compare the rule sets" value={props.chart} none="not now" choices={props.views.map(([value, label]) => ({ value, label }))} onChange={(c) => props.setChart(c as V | '')} />
      {entries && props.chart && (
        <figure class="stack compare-chart" style={{ margin: 0 }}>
          <BarChart id={props.id} title={title} rules={entries.map((e) => e.label)} groups={props.groups(entries, props.chart)} empty={props.empty} />
        </figure>
      )}
    </div>
  );
}
