import type { TableOptions } from '@personae/rules';
import { textTable, indent } from './table.js';

/** The figures the odds engine reports for one matchup (ChallengeOdds in @personae/rules). */
export interface OddsFigures {
  readonly success: number;
  readonly clearSuccess: number;
  readonly glancingSuccess: number;
  readonly failure: number;
  readonly fullTie: number;
  readonly criticals: readonly number[];
  readonly reactorCriticals: readonly number[];
  readonly method: 'exact' | 'simulation';
  readonly samples?: number;
  readonly standardError?: number;
  /** Under fullTie = reroll: the chance that an attempt is a full tie and is rolled again. */
  readonly rerolledTie?: number;
  /** Why the engine simulated. */
  readonly note?: string;
}

/** "61.23%"; "<0.01%" for a chance too small to show but not zero; "0%" and "100%" exactly. */
export function percent(p: number, digits = 2): string {
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  const smallest = 10 ** -digits;
  if (p * 100 < smallest) return `<${smallest.toFixed(digits)}%`;
  if (p * 100 > 100 - smallest) return `>${(100 - smallest).toFixed(digits)}%`;
  return `${(p * 100).toFixed(digits)}%`;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar, `width` cells for 100%, in eighths of a cell. */
export function bar(p: number, width = 30): string {
  const eighths = Math.round(Math.max(0, Math.min(1, p)) * width * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
}

/** "0: 97.21%  1: 2.70%  2: 0.09%" — the chance of banking 0, 1, 2, ... criticals. */
export function criticalsLine(distribution: readonly number[]): string {
  let last = distribution.length - 1;
  while (last > 0 && (distribution[last] ?? 0) === 0) last--;
  return distribution
    .slice(0, last + 1)
    .map((p, n) => `${n}: ${percent(p)}`)
    .join('   ');
}

export interface OddsTextContext {
  readonly title: string;
  readonly subtitle: string;
  readonly actorName: string;
  /** Absent when the other side earns no criticals (the GM's difficulty roll). */
  readonly reactorName?: string;
  readonly unopposed: boolean;
  /** Whether both sides roll the same number of dice: a full tie needs it. */
  readonly equalPools: boolean;
  readonly options: Pick<TableOptions, 'grades' | 'fullTie' | 'unopposed'>;
}

/** The odds of one matchup as text: the outcome bars, then the criticals distribution. */
export function oddsText(odds: OddsFigures, ctx: OddsTextContext): string[] {
  // personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering" names the grades; under
  // the 2011 rules the split only says whether the highest dice decided.
  const graded = ctx.options.grades === 'srd-v4';
  const clearLabel = graded ? 'clear' : 'on the highest dice';
  const glancingLabel = graded ? 'glancing' : 'by tie-break or extra dice';
  const rows: string[][] = [
    [ctx.unopposed ? 'Success (meets the target)' : 'Success', percent(odds.success), bar(odds.success)],
    [`  ${clearLabel}`, percent(odds.clearSuccess), ''],
    [`  ${glancingLabel}`, percent(odds.glancingSuccess), ''],
    ['Failure', percent(odds.failure), bar(odds.failure)],
  ];
  // personae-core-2011.txt "The Challenge" step 4 leaves a tie between equal pools open: option fullTie.
  if (!ctx.unopposed || odds.fullTie > 0) {
    const note = ctx.equalPools ? fullTieNote(ctx.options.fullTie) : '(cannot happen: one side has more dice)';
    rows.push(['Full tie', percent(odds.fullTie), `${bar(odds.fullTie)} ${note}`.trimStart()]);
  }
  const lines = [ctx.title, ctx.subtitle, '', ...indent(textTable(rows, ['left', 'right', 'left']))];
  if (odds.rerolledTie !== undefined && odds.rerolledTie > 0) {
    lines.push('', `  Each attempt is a full tie ${percent(odds.rerolledTie)} of the time and is rolled again; the figures above are for the attempt that settles it.`);
  }
  // The subtitle says how many challenges were simulated; here, why the engine chose to.
  if (odds.method === 'simulation' && odds.note) lines.push('', `  Simulated rather than computed exactly: ${odds.note}.`);
  lines.push('', 'Criticals banked (chance of 0, 1, 2, ...):');
  const critRows = [[ctx.actorName, criticalsLine(odds.criticals)]];
  if (ctx.reactorName !== undefined) critRows.push([ctx.reactorName, criticalsLine(odds.reactorCriticals)]);
  lines.push(...indent(textTable(critRows)));
  return lines;
}

function fullTieNote(fullTie: TableOptions['fullTie']): string {
  switch (fullTie) {
    case 'tie':
      return '(neither side succeeds: option fullTie = tie)';
    case 'reroll':
      return '(rerolled until decided: option fullTie = reroll)';
    case 'actor':
      return '(ties go to the actor: option fullTie = actor)';
    case 'reactor':
      return '(ties go to the reactor: option fullTie = reactor)';
  }
}

export interface GridText {
  readonly title: string;
  readonly rowLabel: string;
  readonly columnLabel: string;
  readonly rows: readonly number[];
  readonly columns: readonly number[];
  /** grid[i][j]: the chance for rows[i] against columns[j]. */
  readonly grid: readonly (readonly number[])[];
  /** The cell asked about, marked with brackets. */
  readonly mark?: { readonly row: number; readonly column: number };
  readonly columnHeading?: (value: number) => string;
}

/** A matrix of success chances, rows by columns, the asked-about cell in [brackets]. */
export function gridText(g: GridText): string[] {
  const heading = g.columnHeading ?? ((v: number) => String(v));
  const header = [`${g.rowLabel} \\ ${g.columnLabel}`, ...g.columns.map(heading)];
  const body = g.rows.map((r, i) => [
    String(r),
    ...g.columns.map((c, j) => {
      const cell = percent(g.grid[i]?.[j] ?? NaN, 1);
      return g.mark && g.mark.row === r && g.mark.column === c ? `[${cell}]` : ` ${cell} `;
    }),
  ]);
  return [g.title, ...indent(textTable([header, ...body], ['left', ...g.columns.map(() => 'right' as const)]))];
}
