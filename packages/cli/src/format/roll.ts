import type { ChallengeResult, TableOptions } from '@personae/rules';
import { signed } from '../args.js';
import { indent } from './table.js';

/** The most pairs the pool drawing shows before it summarises the rest. */
const MAX_COLUMNS = 12;

/** Whether only the highest dice were compared (the literal 2011 unopposed reading). */
function highestDieOnly(result: ChallengeResult, options: Pick<TableOptions, 'unopposed'>): boolean {
  return result.kind === 'unopposed' && options.unopposed === 'highest-die';
}

/**
 * Both sorted pools side by side, one column per pair, each compared die with its total, the
 * verdict of every compared pair, and a caret line under the pair (or extra die) that decided.
 *
 *                #1       #2      #3
 *   Actor +3     7 (10)   5 (8)   2
 *   Reactor +2   8 (10)   6 (8)   -
 *   pair         tie      tie     Actor
 *                                 ^^^^^ decides: extra die
 */
export function poolVisual(result: ChallengeResult, options: Pick<TableOptions, 'unopposed'>): string[] {
  const { actor, reactor, steps } = result;
  const pairs = Math.max(actor.dice.length, reactor.dice.length, 1);
  // Large pools: show the compared pairs and a few more, then say how many dice are left out.
  const deciding = typeof result.decidedBy === 'number' ? result.decidedBy : result.decidedBy === 'extra-dice' ? steps.length + 1 : steps.length;
  const columns = Math.min(pairs, Math.max(MAX_COLUMNS, deciding + 2));
  const literal = highestDieOnly(result, options);
  const labels = [' ', `${actor.name} ${signed(actor.modifier)}`, `${reactor.name} ${signed(reactor.modifier)}`, 'pair'];
  const cells: string[][] = [];
  let decisive = -1;
  let note = '';
  for (let i = 0; i < columns; i++) {
    const step = steps[i];
    const a = actor.dice[i];
    const r = reactor.dice[i];
    const dieCell = (die: number | undefined, total: number | undefined) => (die === undefined ? '-' : total === undefined ? String(die) : `${die} (${total})`);
    let verdict = '';
    if (step) {
      if (literal) verdict = step.actor.total >= step.reactor.total ? 'meets' : 'short';
      else verdict = step.result === 'tie' ? 'tie' : step.result === 'actor' ? actor.name : reactor.name;
    } else if (result.decidedBy === 'extra-dice' && i === steps.length) {
      verdict = result.winner === 'actor' ? actor.name : reactor.name;
    }
    cells.push([`#${i + 1}`, dieCell(a, step?.actor.total), dieCell(r, step?.reactor.total), verdict]);
  }
  if (typeof result.decidedBy === 'number') {
    decisive = result.decidedBy - 1;
    // personae-core-2011.txt "Unopposed Challenges": only the highest dice, and meeting the target succeeds.
    note = literal ? 'decides: highest dice only, meeting the target succeeds' : result.decidedBy === 1 ? 'decides: highest dice' : `decides: tie-break at pair #${result.decidedBy}`;
  } else if (result.decidedBy === 'extra-dice') {
    // personae-core-2011.txt "The Challenge" step 4: after every pair ties, the side with dice left succeeds.
    decisive = steps.length;
    note = `decides: ${result.winner === 'actor' ? actor.name : reactor.name} still has dice to compare`;
  }
  if (columns < pairs) {
    const more = (n: number) => (n > columns ? `+${n - columns} more` : '');
    cells.push(['...', more(actor.dice.length), more(reactor.dice.length), '']);
  }
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const widths = cells.map((col) => Math.max(...col.map((c) => c.length)));
  const lines = labels.map((label, row) =>
    [label.padEnd(labelWidth), ...cells.map((col, i) => col[row]!.padEnd(widths[i]!))].join('   ').trimEnd(),
  );
  if (decisive >= 0 && decisive < cells.length) {
    const offset = labelWidth + 3 + widths.slice(0, decisive).reduce((s, w) => s + w + 3, 0);
    const caretWidth = Math.max(1, cells[decisive]![3]!.length);
    lines.push(`${' '.repeat(offset)}${'^'.repeat(caretWidth)} ${note}`);
  } else if (result.decidedBy === null && result.kind !== 'automatic') {
    lines.push(`${' '.repeat(labelWidth + 3)}no pair decides: every die tied with equal pools (a full tie)`);
  }
  return lines;
}

/** One line saying who won, how, and any criticals. */
export function headline(result: ChallengeResult, options: Pick<TableOptions, 'grades' | 'unopposed'>): string {
  const { actor, reactor } = result;
  // personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering": grades are named only under that rule.
  const graded = options.grades === 'srd-v4' && result.grade !== null ? ` (${result.grade} success)` : '';
  let what: string;
  if (result.outcome === 'success') what = `SUCCESS${graded}: ${actor.name} ${result.kind === 'unopposed' ? 'meets the target' : 'succeeds'}`;
  else if (result.outcome === 'failure') what = `FAILURE: ${result.kind === 'unopposed' ? `${actor.name} falls short of the target` : `${reactor.name} answers the challenge`}`;
  else what = 'FULL TIE: neither side succeeds';
  const how =
    result.decidedBy === 1
      ? highestDieOnly(result, options)
        ? 'on the highest dice'
        : 'decided on the highest dice'
      : result.decidedBy === 'extra-dice'
        ? 'decided by extra dice'
        : typeof result.decidedBy === 'number'
          ? `decided by tie-break at pair #${result.decidedBy}`
          : 'every pair tied';
  // A ruling (a natural 10 under srd-v4, steering, option fullTie) can turn the dice's verdict around.
  const diceSay = result.winner === 'actor' ? 'success' : result.winner === 'reactor' ? 'failure' : 'tie';
  const ruled = diceSay !== result.outcome && result.rulings.length > 0 ? `; the dice alone said ${diceSay}, changed by: ${[...new Set(result.rulings.map((r) => r.rule).filter((rule) => !/critical/.test(rule)))].join(', ')}` : '';
  const crits: string[] = [];
  if (result.criticals.actor > 0) crits.push(`${actor.name} ${result.criticals.actor}`);
  if (result.criticals.reactor > 0) crits.push(`${reactor.name} ${result.criticals.reactor}`);
  return `${what} (${how}${ruled})${crits.length > 0 ? `; criticals: ${crits.join(', ')}` : ''}.`;
}

export interface RollTextContext {
  readonly title: string;
  readonly subtitle: string;
  readonly options: TableOptions;
  /** Lines shown before the result, such as where each side's dice came from. */
  readonly preface?: readonly string[];
}

/** The whole text report of one roll: title, headline, the pools, then the explanation step by step. */
export function rollText(result: ChallengeResult, ctx: RollTextContext): string[] {
  return [
    ctx.title,
    ctx.subtitle,
    '',
    ...(ctx.preface && ctx.preface.length > 0 ? [...ctx.preface, ''] : []),
    headline(result, ctx.options),
    '',
    ...indent(poolVisual(result, ctx.options)),
    '',
    'Step by step:',
    ...indent(result.explanation),
  ];
}
