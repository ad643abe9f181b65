import { tableOptions, atLeast, atMost, COMPARED_FIELDS, expected, howDecided, isPreset, oddsDifferences, parseOptionAssignment, PRESETS, ruleSetLabel, ruleSetsToCompare, type ChallengeOdds, type ChallengeQuery, type DecidingPairs, type OptionName, type Preset, type TableOptions, type UnopposedQuery } from '@personae/rules';
import type { Table } from '../args.js';
import { percent } from '../format/odds.js';
import { textTable, indent } from '../format/table.js';
import { CliError } from '../io.js';

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

/** A comma-separated list of rules presets ("core-2011,srd-v4"), each checked; `flag` names where it was given. */
export function readPresetList(text: string, flag: string): Preset[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new CliError(`${flag}: name at least one rules preset, e.g. ${flag} ${PRESETS.join(',')}`);
  for (const name of names) if (!isPreset(name)) throw new CliError(`${flag}: unknown rules preset "${name}"; known presets: ${PRESETS.join(', ')}`);
  return names as Preset[];
}

/** "core-2011", or "srd-v4 with fullTie=reroll, assist=web". */
export function tableLabel(table: Pick<Table, 'preset' | 'overrides'>): string {
  return ruleSetLabel({ preset: table.preset, overrides: table.overrides as Partial<TableOptions> });
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

/** The comparison as text: one column per rule set, then one per difference from the first. */
export function compareText(title: string, entries: readonly { label: string; odds: ChallengeOdds }[]): string[] {
  const header = ['', ...entries.map((e) => e.label), ...entries.slice(1).map((_, i) => `Δ ${i + 2} - 1`)];
  const signedPercent = (p: number) => (Math.abs(p) < 5e-7 ? '0' : `${p > 0 ? '+' : '-'}${percent(Math.abs(p))}`);
  const rows = COMPARED_FIELDS.map(([field, label]) => [
    label,
    ...entries.map((e) => percent(e.odds[field])),
    ...entries.slice(1).map((e) => signedPercent(e.odds[field] - entries[0]!.odds[field])),
  ]);
  const crit = (o: ChallengeOdds) => expected(o.criticals);
  rows.push([
    'Expected criticals',
    ...entries.map((e) => crit(e.odds).toFixed(3)),
    ...entries.slice(1).map((e) => {
      const d = crit(e.odds) - crit(entries[0]!.odds);
      return Math.abs(d) < 5e-4 ? '0' : `${d > 0 ? '+' : ''}${d.toFixed(3)}`;
    }),
  ]);
  const legend = entries.map((e, i) => `  ${i + 1}: ${e.label}`);
  return [title, '', ...indent(textTable([header, ...rows], ['left', ...header.slice(1).map(() => 'right' as const)])), '', 'Rule sets:', ...legend];
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
