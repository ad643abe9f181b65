import { percent } from '../lib/format';
import type { ChartView, ComparedRules } from '../lib/calculator';
import { atLeast, atMost, COMPARED_FIELDS, type OddsDifference } from '../lib/rules';

/** One colour per rule set; the legend and the table also number them, so colour is never the only clue. */
const COLOURS = ['#24427d', '#b5651d', '#2e7d4f', '#8a2d6b', '#5b5b5b', '#9e2418'];

/** How many critical counts a chart shows at most, so the bars stay readable; the table lists every figure. */
const MAX_CRITICALS = 6;

export interface Group {
  label: string;
  values: number[];
}

/** The groups of bars a view shows: one group per figure, one bar per rule set. */
export function chartGroups(entries: readonly ComparedRules[], view: ChartView): Group[] {
  if (view === 'outcomes') return COMPARED_FIELDS.filter(([f]) => entries.some((e) => e.odds[f] > 0)).map(([f, label]) => ({ label: capitalised(label.split(' / ')[0]!), values: entries.map((e) => e.odds[f]) }));
  const cumulative = entries.map((e) => (view === 'criticals-at-least' ? atLeast(e.odds.criticals) : atMost(e.odds.criticals)));
  const longest = Math.min(MAX_CRITICALS, Math.max(...cumulative.map((c) => c.length)) - 1);
  // "At least 0" is always certain and "at most" the largest count too, so neither is drawn.
  const ks = view === 'criticals-at-least' ? range(1, longest) : range(0, longest - 1);
  return ks.map((k) => ({
    label: view === 'criticals-at-least' ? `${k}+` : `≤ ${k}`,
    values: cumulative.map((c) => (view === 'criticals-at-least' ? (c[k] ?? 0) : (c[k] ?? 1))),
  }));
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function range(from: number, to: number): number[] {
  return to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const VIEW_TITLE: Record<ChartView, string> = {
  outcomes: 'Chance of each outcome',
  'criticals-at-least': "Chance the actor earns at least this many criticals",
  'criticals-at-most': "Chance the actor earns at most this many criticals",
};

/**
 * Grouped bars, one group per figure and one bar per rule set, with a numbered legend (any ruleset's
 * comparison draws with it). `empty` is said when there is no group to draw.
 */
export function BarChart(props: { id: string; title: string; rules: readonly string[]; groups: readonly Group[]; empty: string }) {
  const { groups } = props;
  const n = props.rules.length;
  const barW = Math.max(10, Math.min(28, Math.floor(150 / n)));
  const groupW = n * barW + 12;
  const h = 140;
  const top = 18;
  const left = 40;
  const width = Math.max(240, left + groups.length * groupW + 8);
  const height = top + h + 28;
  const summary = groups.map((g) => `${g.label}: ${g.values.map((v, i) => `${props.rules[i]!} ${percent(v)}`).join(', ')}`).join('; ');
  return (
    <>
      <figcaption class="small">{props.title}</figcaption>
      {groups.length === 0 ? (
        <p class="muted small">{props.empty}</p>
      ) : (
        <svg id={props.id} class="chart" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${props.title}: ${summary}`}>
          {[0.5, 1].map((y) => (
            <g key={y}>
              <line x1={left - 4} x2={width} y1={top + h - y * h} y2={top + h - y * h} stroke="#e2dccd" />
              <text x={left - 8} y={top + h - y * h + 4} text-anchor="end">
                {y * 100}%
              </text>
            </g>
          ))}
          <line x1={left - 4} x2={width} y1={top + h} y2={top + h} stroke="#6d6658" />
          {groups.map((g, gi) => {
            const x0 = left + gi * groupW;
            return (
              <g key={g.label}>
                {g.values.map((v, i) => {
                  const bh = Math.max(1, v * h);
                  return (
                    <rect key={i} x={x0 + i * barW} y={top + h - bh} width={barW - 2} height={bh} fill={COLOURS[i % COLOURS.length]} data-rules={props.rules[i]!} data-value={v}>
                      <title>{`${props.rules[i]!}, ${g.label}: ${percent(v)}`}</title>
                    </rect>
                  );
                })}
                <text x={x0 + (n * barW) / 2} y={top + h + 16} text-anchor="middle">
                  {g.label}
                </text>
              </g>
            );
          })}
        </svg>
      )}
      <ul class="legend row small">
        {props.rules.map((label, i) => (
          <li key={label}>
            <span class="swatch" style={{ background: COLOURS[i % COLOURS.length] }} aria-hidden="true" /> {i + 1}: {label}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The compared rule sets on one chart (grouped bars), with a table of the same figures and the differences. */
export function CompareChart(props: { entries: readonly ComparedRules[]; differences: readonly OddsDifference[]; view: ChartView; id: string }) {
  return (
    <figure class="stack compare-chart" style={{ margin: 0 }}>
      <BarChart id={props.id} title={VIEW_TITLE[props.view]} rules={props.entries.map((e) => e.label)} groups={chartGroups(props.entries, props.view)} empty="No rule set gives the actor criticals on these pools." />
      <div class="scroll-x">
        <table class="small compare-table">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              {props.entries.map((e, i) => (
                <th key={e.label} scope="col">
                  {i + 1}
                </th>
              ))}
              {props.differences.map((_, i) => (
                <th key={i} scope="col">
                  Δ {i + 2} − 1
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {COMPARED_FIELDS.map(([f, label]) => (
              <tr key={f}>
                <th scope="row">{label}</th>
                {props.entries.map((e) => (
                  <td key={e.label}>{percent(e.odds[f])}</td>
                ))}
                {props.differences.map((d, i) => (
                  <td key={i}>{signedPercent(d[f])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function signedPercent(p: number): string {
  if (Math.abs(p) < 5e-7) return '0';
  return `${p > 0 ? '+' : '−'}${percent(Math.abs(p))}`;
}
