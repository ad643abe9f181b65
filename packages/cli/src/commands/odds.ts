import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import {
  DIFFICULTIES,
  PROGRESS_CHUNK,
  assistBenefit,
  challengeOdds,
  difficultyLabel,
  oddsGrid,
  parseDifficulty,
  sumLabeled,
  unopposedOdds,
  type ChallengeOdds,
  type ChallengeQuery,
  type Difficulty,
  type OddsSide,
  type UnopposedQuery,
} from '@personae/rules';
// The Node-only part of the odds (worker threads) is kept out of the rules package's entry point.
import { simulateChallengeParallel, simulateUnopposedParallel } from '@personae/rules/node';
import { addTableFlags, collect, readSides, readTable, seedNumber, signed, wholeNumber, type PoolInput, type Table, type TableFlags } from '../args.js';
import { toJson } from '../format/json.js';
import { gridText, oddsText, percent } from '../format/odds.js';
import { grouped, progressBar } from '../format/progress.js';
import { lineChartSvg, type ChartSeries } from '../format/svg.js';
import { CliError, InterruptedError, writeLines, type CliIo } from '../io.js';
import { type OddsQuery, clean, compareTables, compareText, csv, differences, distributions, distributionsJson, distributionsText, oddsCsvRows, tableLabel } from './odds-lab.js';

export interface OddsFlags extends TableFlags {
  unopposed?: string;
  table?: boolean;
  plot?: string;
  maxDice?: number;
  assist: string[];
  steer: number;
  actorPt?: number;
  reactorPt?: number;
  json?: boolean;
  /** Estimate by rolling this many challenges on worker threads instead of computing exactly. */
  simulate?: number;
  seed?: number;
  workers?: number;
  /** Rules presets to compare, comma-separated. */
  compare?: string;
  /** Variants of the table's rules to compare, one option changed in each. */
  compareOption: string[];
  csv?: boolean;
}

export const ODDS_DEFAULTS: OddsFlags = { rules: 'core-2011', option: [], assist: [], steer: 0, compareOption: [] };

/** The largest pool the --table and --plot sweeps go up to. */
const MAX_SWEEP = 20;
/** The most challenges one --simulate rolls. */
const MAX_SAMPLES = 1_000_000_000;
/** The most worker threads --workers asks for. */
const MAX_WORKERS = 64;

export interface OddsRequest {
  readonly table: Table;
  readonly actor: PoolInput;
  readonly reactor?: PoolInput;
  readonly difficulty?: Difficulty;
  readonly assistants: readonly string[];
  readonly steer: number;
  readonly actorPotentialThreshold?: number;
  readonly reactorPotentialThreshold?: number;
}

function refuseGiven(pool: PoolInput | undefined, role: string): void {
  if (pool?.given === undefined) return;
  const rewrite = `${pool.count}d10${pool.modifier === 0 ? '' : signed(pool.modifier)}`;
  throw new CliError(`odds are computed for dice not yet rolled, but ${role} "${pool.text}" lists dice already rolled; write "${rewrite}" instead`);
}

export function readOddsRequest(words: readonly string[], flags: OddsFlags): OddsRequest {
  const table = readTable(flags);
  const unopposed = flags.unopposed !== undefined;
  if (unopposed && flags.reactorPt !== undefined) throw new CliError("--reactor-pt has no use with --unopposed: the GM's difficulty roll earns no criticals");
  if (flags.simulate === undefined) {
    if (flags.seed !== undefined) throw new CliError('--seed is for --simulate: exact odds roll no dice');
    if (flags.workers !== undefined) throw new CliError('--workers is for --simulate: exact odds run in one thread');
  } else if (flags.table || flags.plot !== undefined) {
    throw new CliError(`--simulate estimates the one matchup asked about; --table and --plot compute exact odds over pool sizes: drop ${flags.table ? '--table' : '--plot'} or --simulate`);
  }
  const { actor, reactor } = readSides(words, unopposed, table.options, { actor: unopposed ? "the player's dice" : "the actor's dice", reactor: "the reactor's dice" });
  refuseGiven(actor, unopposed ? "the player's" : "the actor's");
  refuseGiven(reactor, "the reactor's");
  return {
    table,
    actor,
    ...(reactor ? { reactor } : {}),
    ...(unopposed ? { difficulty: parseDifficulty(flags.unopposed!) } : {}),
    assistants: flags.assist,
    steer: flags.steer,
    ...(flags.actorPt !== undefined ? { actorPotentialThreshold: flags.actorPt } : {}),
    ...(flags.reactorPt !== undefined ? { reactorPotentialThreshold: flags.reactorPt } : {}),
  };
}

/**
 * The actor's side with what assistants give it, by option assist (personae-core-2011.txt "Assisting in a
 * Challenge": +1 to the result each; personae-playing-web.txt: +1 die each; personae-v4-srd-playing.txt: a
 * steer each), and the total steer.
 */
function assisted(request: OddsRequest): { actor: OddsSide; steer: number } {
  const benefit = assistBenefit(
    request.assistants.map((name) => ({ name })),
    request.table.options,
  );
  return {
    actor: {
      dice: request.actor.count + sumLabeled(benefit.bonusDice),
      modifier: request.actor.modifier + sumLabeled(benefit.modifiers),
      ...(request.actorPotentialThreshold !== undefined ? { potentialThreshold: request.actorPotentialThreshold } : {}),
    },
    steer: request.steer + sumLabeled(benefit.steer),
  };
}

/** The question the odds engine answers: the sides as they roll, with what assistants add. */
export function oddsQuery(request: OddsRequest): OddsQuery {
  const { actor, steer } = assisted(request);
  if (request.difficulty) {
    // personae-core-2011.txt "Unopposed Challenges": the GM's dice follow the skill rating, not bonus dice.
    return { kind: 'unopposed', query: { player: actor, difficulty: request.difficulty.value, skillRating: request.actor.count, steer } };
  }
  const reactor: OddsSide = {
    dice: request.reactor!.count,
    modifier: request.reactor!.modifier,
    ...(request.reactorPotentialThreshold !== undefined ? { potentialThreshold: request.reactorPotentialThreshold } : {}),
  };
  return { kind: 'opposed', query: { actor, reactor, steer } };
}

export function computeOdds(request: OddsRequest): ChallengeOdds {
  const q = oddsQuery(request);
  return q.kind === 'unopposed' ? unopposedOdds(q.query, request.table.options) : challengeOdds(q.query, request.table.options);
}

/** How a simulation ran: what `--simulate`, `--seed` and `--workers` asked for, and the threads used. */
export interface SimulationRun {
  readonly samples: number;
  readonly seed: number;
  readonly workers: number;
  readonly milliseconds: number;
}

/**
 * Monte Carlo over the resolver's own code (@personae/rules odds/simulate.ts) on worker threads, with a
 * progress bar on stderr when it is a terminal and a closing line either way. Ctrl-C stops the workers
 * and ends the command with InterruptedError.
 */
export async function simulateOdds(request: OddsRequest, flags: OddsFlags, io: CliIo): Promise<{ odds: ChallengeOdds; run: SimulationRun }> {
  const q = oddsQuery(request);
  const samples = flags.simulate!;
  const seed = flags.seed ?? randomInt(0, 2 ** 31);
  const wanted = flags.workers ?? availableParallelism();
  // parallel.ts starts no more workers than there are chunks of PROGRESS_CHUNK samples.
  const workers = Math.min(wanted, Math.ceil(samples / PROGRESS_CHUNK));
  const progress = progressBar(io, { label: 'Simulating', unit: 'challenges' });
  const controller = new AbortController();
  const stopListening = io.onInterrupt?.(() => {
    controller.abort(new InterruptedError(`interrupted: the simulation stopped after ${grouped(progress.done)} of ${grouped(samples)} challenges; nothing was printed`));
  });
  const settings = { samples, seed, workers: wanted, signal: controller.signal, onProgress: (done: number, total: number) => progress.update(done, total) };
  const started = performance.now();
  progress.update(0, samples);
  try {
    const odds = q.kind === 'unopposed' ? await simulateUnopposedParallel(q.query, request.table.options, settings) : await simulateChallengeParallel(q.query, request.table.options, settings);
    const milliseconds = performance.now() - started;
    progress.finish(`Simulated ${grouped(samples)} challenges on ${workers} worker ${workers === 1 ? 'thread' : 'threads'} in ${(milliseconds / 1000).toFixed(1)} s (seed ${seed}).`);
    return { odds, run: { samples, seed, workers, milliseconds } };
  } catch (e) {
    progress.clear();
    if (controller.signal.aborted) throw controller.signal.reason;
    throw e;
  } finally {
    stopListening?.();
  }
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
}

/** Pool sizes around the one asked about: from 1 (0 if the table allows and it was asked) to two more, at least 5. */
function sweep(count: number, maxDice: number | undefined): number[] {
  const top = maxDice ?? Math.min(MAX_SWEEP, Math.max(5, count + 2));
  return range(count === 0 ? 0 : 1, Math.max(top, count));
}

/** A matrix of success chances over pool sizes, for --table and --plot. */
export interface OddsSweep {
  readonly rowLabel: string;
  readonly columnLabel: string;
  readonly rows: number[];
  readonly columns: number[];
  /** success[i][j]: the chance of success for rows[i] against columns[j]. */
  readonly success: number[][];
  readonly mark: { readonly row: number; readonly column: number };
}

export function computeSweep(request: OddsRequest, maxDice: number | undefined): OddsSweep {
  const options = request.table.options;
  const { actor, steer } = assisted(request);
  // Rows are the pool as typed; dice that assistants add (option assist = web) come on top of each.
  const bonus = actor.dice - request.actor.count;
  const rows = sweep(request.actor.count, maxDice);
  if (request.difficulty) {
    // Each pool against every rung of the difficulty ladder (personae-core-2011.txt "Unopposed Challenges").
    const columns = [...new Set([...DIFFICULTIES.map((d) => d.value), request.difficulty.value])].sort((a, b) => a - b);
    const success = rows.map((dice) => columns.map((difficulty) => unopposedOdds({ player: { ...actor, dice: dice + bonus }, difficulty, skillRating: dice, steer }, options).success));
    return { rowLabel: 'player dice', columnLabel: 'difficulty', rows, columns, success, mark: { row: request.actor.count, column: request.difficulty.value } };
  }
  const reactorSide = request.reactor!;
  const columns = sweep(reactorSide.count, maxDice);
  const plain = bonus === 0 && steer === 0 && request.actorPotentialThreshold === undefined && request.reactorPotentialThreshold === undefined;
  const reactor = (dice: number): OddsSide => ({
    dice,
    modifier: reactorSide.modifier,
    ...(request.reactorPotentialThreshold !== undefined ? { potentialThreshold: request.reactorPotentialThreshold } : {}),
  });
  const success = plain
    ? oddsGrid(rows, columns, actor.modifier - reactorSide.modifier, options)
    : rows.map((a) => columns.map((r) => challengeOdds({ actor: { ...actor, dice: a + bonus }, reactor: reactor(r), steer }, options).success));
  return { rowLabel: 'actor dice', columnLabel: 'reactor dice', rows, columns, success, mark: { row: request.actor.count, column: reactorSide.count } };
}

function names(request: OddsRequest): { actor: string; reactor: string } {
  if (request.difficulty) return { actor: 'Player', reactor: 'GM' };
  return { actor: 'Actor', reactor: 'Reactor' };
}

function describe(request: OddsRequest, odds: ChallengeOdds, run: SimulationRun | undefined): { title: string; subtitle: string } {
  const n = names(request);
  const title = request.difficulty
    ? `Odds: ${n.actor} ${request.actor.text} against difficulty ${request.difficulty.label} (+${request.difficulty.value})`
    : `Odds: ${n.actor} ${request.actor.text} vs ${n.reactor} ${request.reactor!.text}`;
  const overrides = Object.entries(request.table.overrides).map(([k, v]) => `${k}=${String(v)}`);
  const extras = [
    request.assistants.length > 0 ? `assisted by ${request.assistants.join(', ')}` : '',
    request.steer > 0 ? `steer ${request.steer}` : '',
    request.actorPotentialThreshold !== undefined ? `${n.actor} Potential Threshold ${request.actorPotentialThreshold}` : '',
    request.reactorPotentialThreshold !== undefined ? `${n.reactor} Potential Threshold ${request.reactorPotentialThreshold}` : '',
  ].filter((s) => s !== '');
  const how = odds.method === 'exact' ? 'exact probabilities' : simulationLabel(odds, run);
  return { title, subtitle: `Rules ${request.table.preset}${overrides.length > 0 ? ` with ${overrides.join(', ')}` : ''}; ${how}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}.` };
}

/** "estimated by simulation of 200,000 challenges ± 0.112% (standard error; seed 7, 2 worker threads)" */
function simulationLabel(odds: ChallengeOdds, run: SimulationRun | undefined): string {
  const samples = odds.samples !== undefined ? ` of ${grouped(odds.samples)} challenges` : '';
  const error = odds.standardError !== undefined ? ` ± ${percent(odds.standardError, 3)}` : '';
  const how = [odds.standardError !== undefined ? 'standard error' : '', run ? `seed ${run.seed}, ${run.workers} worker ${run.workers === 1 ? 'thread' : 'threads'}` : ''].filter((x) => x !== '');
  return `estimated by simulation${samples}${error}${how.length ? ` (${how.join('; ')})` : ''}`;
}

export function sweepText(request: OddsRequest, s: OddsSweep): string[] {
  const title = request.difficulty
    ? `Chance of success by the player's pool (rows) and difficulty (columns), modifier ${signed(request.actor.modifier)}:`
    : `Chance of success by pool size, actor ${signed(request.actor.modifier)} (rows) against reactor ${signed(request.reactor!.modifier)} (columns):`;
  return gridText({
    title,
    rowLabel: s.rowLabel,
    columnLabel: s.columnLabel,
    rows: s.rows,
    columns: s.columns,
    grid: s.success,
    mark: s.mark,
    ...(request.difficulty ? { columnHeading: (v: number) => `+${v}` } : {}),
  });
}

/** The SVG chart of the sweep: one line per reactor pool (or per difficulty), against the actor's pool. */
export function sweepSvg(request: OddsRequest, s: OddsSweep): string {
  const rulesText = `rules ${request.table.preset}`;
  const series: ChartSeries[] = s.columns.map((c, j) => ({
    label: request.difficulty ? `${difficultyLabel(c).replace(/ \(\d+\)$/, '')} +${c}` : `reactor ${c}d10${signed(request.reactor!.modifier)}`,
    values: s.rows.map((_, i) => s.success[i]?.[j] ?? null),
    emphasis: c === s.mark.column,
  }));
  const at = s.rows.indexOf(s.mark.row);
  const column = s.columns.indexOf(s.mark.column);
  const y = s.success[at]?.[column];
  return lineChartSvg({
    title: request.difficulty ? 'Chance that an unopposed challenge succeeds' : 'Chance that the actor succeeds',
    subtitle: request.difficulty
      ? `Player ${signed(request.actor.modifier)} against each difficulty, ${rulesText}`
      : `Actor ${signed(request.actor.modifier)} against reactor ${signed(request.reactor!.modifier)}, ${rulesText}`,
    xLabel: request.difficulty ? "Player's pool (d10s)" : "Actor's pool (d10s)",
    yLabel: 'Chance of success',
    xValues: s.rows,
    series,
    legendTitle: request.difficulty ? 'Difficulty' : "Reactor's pool",
    ...(y !== undefined ? { highlight: { x: s.mark.row, y, label: `${request.actor.text}: ${percent(y, 1)}` } } : {}),
  });
}

/** The `--json` shape of odds (docs/cli.md "personae odds --json"). */
export function oddsJson(request: OddsRequest, odds: ChallengeOdds, extra: { sweep?: OddsSweep; plot?: string; run?: SimulationRun }) {
  const views = distributionsJson(distributions(oddsQuery(request), odds, request.table.options));
  const side = (p: PoolInput) => ({ expression: p.text, dice: p.count, modifier: p.modifier });
  return {
    command: 'odds',
    kind: request.difficulty ? 'unopposed' : 'opposed',
    rules: request.table.preset,
    options: request.table.overrides,
    actor: side(request.actor),
    ...(request.reactor ? { reactor: side(request.reactor) } : {}),
    ...(request.difficulty ? { difficulty: { value: request.difficulty.value, label: request.difficulty.label }, unopposed: request.table.options.unopposed } : {}),
    assistants: [...request.assistants],
    steer: request.steer,
    success: clean(odds.success),
    clearSuccess: clean(odds.clearSuccess),
    glancingSuccess: clean(odds.glancingSuccess),
    failure: clean(odds.failure),
    fullTie: clean(odds.fullTie),
    criticals: odds.criticals.map(clean),
    reactorCriticals: odds.reactorCriticals.map(clean),
    ...views,
    method: odds.method,
    ...(odds.samples !== undefined ? { samples: odds.samples } : {}),
    ...(odds.standardError !== undefined ? { standardError: odds.standardError } : {}),
    ...(extra.run ? { seed: extra.run.seed, workers: extra.run.workers } : {}),
    ...(odds.rerolledTie !== undefined ? { rerolledTie: clean(odds.rerolledTie) } : {}),
    ...(odds.note !== undefined ? { note: odds.note } : {}),
    ...(extra.sweep
      ? { table: { rows: extra.sweep.rowLabel, columns: extra.sweep.columnLabel, rowValues: extra.sweep.rows, columnValues: extra.sweep.columns, success: extra.sweep.success.map((row) => row.map(clean)) } }
      : {}),
    ...(extra.plot !== undefined ? { plot: extra.plot } : {}),
  };
}

/** Read, compute and report exact odds: the text lines, the JSON object, and the SVG when asked for. */
export function executeOdds(words: readonly string[], flags: OddsFlags): OddsReport {
  const request = readOddsRequest(words, flags);
  return oddsReport(request, computeOdds(request), flags);
}

export interface OddsReport {
  readonly lines: string[];
  readonly json: ReturnType<typeof oddsJson>;
  /** `--csv`: the sweep over pool sizes with --table, otherwise the figures' row. */
  readonly csv: string[];
  readonly svg?: string;
}

/** The text lines, the JSON object and the SVG of odds already computed (or simulated: `run`). */
export function oddsReport(request: OddsRequest, odds: ChallengeOdds, flags: OddsFlags, run?: SimulationRun): OddsReport {
  const n = names(request);
  const lines = oddsText(odds, {
    ...describe(request, odds, run),
    actorName: n.actor,
    ...(request.difficulty ? {} : { reactorName: n.reactor }),
    unopposed: request.difficulty !== undefined,
    equalPools: request.reactor !== undefined && assisted(request).actor.dice === request.reactor.count,
    options: request.table.options,
  });
  const wantSweep = flags.table === true || flags.plot !== undefined;
  const sweep = wantSweep ? computeSweep(request, flags.maxDice) : undefined;
  if (flags.table) lines.push('', ...distributionsText(distributions(oddsQuery(request), odds, request.table.options), n));
  if (sweep && flags.table) lines.push('', ...sweepText(request, sweep));
  const svg = sweep && flags.plot !== undefined ? sweepSvg(request, sweep) : undefined;
  return {
    lines,
    json: oddsJson(request, odds, { ...(flags.table && sweep ? { sweep } : {}), ...(flags.plot !== undefined ? { plot: resolve(flags.plot) } : {}), ...(run ? { run } : {}) }),
    csv: flags.table && sweep ? sweepCsv(sweep) : oddsCsvRows([{ label: tableLabel(request.table), odds }]),
    ...(svg !== undefined ? { svg } : {}),
  };
}

/** The sweep as CSV: a header of the columns' values, then one row per row value. */
function sweepCsv(s: OddsSweep): string[] {
  return csv([[`${s.rowLabel} \\ ${s.columnLabel}`, ...s.columns], ...s.rows.map((r, i) => [r, ...s.success[i]!])]);
}

/**
 * `--compare` / `--compare-option`: the same question under each rule set, every figure of a single
 * query for each, and the differences from the first. Options that change the sides (assist) apply to
 * each rule set as it reads them.
 */
export function executeCompare(request: OddsRequest, flags: OddsFlags): OddsReport {
  if (flags.simulate !== undefined) throw new CliError('--compare computes exact odds under each rule set; drop --simulate');
  if (flags.table) throw new CliError('--compare prints one column per rule set; --table sweeps pool sizes under one rule set: drop --table, or use --plot to draw the rule sets over pool sizes');
  const tables = compareTables(request.table, flags.compare, flags.compareOption);
  const entries = tables.map((table) => {
    const r: OddsRequest = { ...request, table };
    return { label: tableLabel(table), request: r, odds: computeOdds(r) };
  });
  const first = entries[0]!;
  const single = oddsJson(first.request, first.odds, {});
  const { title } = describe(request, first.odds, undefined);
  const json = {
    command: 'odds' as const,
    kind: single.kind,
    actor: single.actor,
    ...('reactor' in single ? { reactor: single.reactor } : {}),
    ...('difficulty' in single ? { difficulty: single.difficulty } : {}),
    assistants: single.assistants,
    steer: single.steer,
    compare: entries.map((e) => ({ label: e.label, ...oddsJson(e.request, e.odds, {}) })),
    differences: differences(entries),
    ...(flags.plot !== undefined ? { plot: resolve(flags.plot) } : {}),
  };
  let svg: string | undefined;
  if (flags.plot !== undefined) {
    const sweeps = entries.map((e) => computeSweep(e.request, flags.maxDice));
    const s0 = sweeps[0]!;
    const column = s0.columns.indexOf(s0.mark.column);
    svg = lineChartSvg({
      title: request.difficulty ? 'Chance that an unopposed challenge succeeds, by rule set' : 'Chance that the actor succeeds, by rule set',
      subtitle: request.difficulty ? `Player ${signed(request.actor.modifier)} against ${request.difficulty.label}` : `Actor ${signed(request.actor.modifier)} against reactor ${request.reactor!.text}`,
      xLabel: request.difficulty ? "Player's pool (d10s)" : "Actor's pool (d10s)",
      yLabel: 'Chance of success',
      xValues: s0.rows,
      series: entries.map((e, i) => ({ label: e.label, values: sweeps[i]!.rows.map((_, r) => sweeps[i]!.success[r]?.[column] ?? null), emphasis: i === 0 })),
      legendTitle: 'Rules',
    });
  }
  return {
    lines: compareText(title, entries),
    json: json as unknown as OddsReport['json'],
    csv: oddsCsvRows(entries),
    ...(svg !== undefined ? { svg } : {}),
  };
}

/** `--simulate N`: a whole number of challenges, written 200000, 200_000, 200,000 or 2e5. */
function sampleCount(value: string): number {
  const text = value.trim().replace(/[_,]/g, '');
  const n = /^\d+(\.\d+)?e\d+$/i.test(text) ? Number(text) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_SAMPLES) throw new InvalidArgumentError(`expected a whole number of challenges from 1 to ${grouped(MAX_SAMPLES)}, e.g. 200000 or 2e5.`);
  return n;
}

export function registerOddsCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('odds')
    .summary('exact chances of a challenge: success, clear, glancing, failure, full tie, criticals')
    .description(
      'Compute the exact odds of an opposed challenge ("3d10+4" vs "2d10+5") or of an unopposed one (--unopposed 5),\n' +
        'under the table\'s rules. --table adds a matrix over pool sizes, --plot FILE.svg draws it as a chart.',
    )
    .usage('<actor> vs <reactor> [options]\n       personae odds <player> --unopposed <difficulty> [options]')
    .argument('[dice...]', 'the actor\'s dice expression, "vs", the reactor\'s dice expression');
  addTableFlags(cmd)
    .option('--unopposed <difficulty>', 'an unopposed challenge: difficulty by name (easy, normal, difficult, ...) or number')
    .option('--table', 'also print the chance of success over a range of pool sizes')
    .option('--plot <file.svg>', 'write an SVG chart of the chance of success against pool sizes')
    .option('--max-dice <n>', `the largest pool in --table and --plot (default: two more than asked, at least 5)`, wholeNumber(1, MAX_SWEEP))
    .option('--assist <name>', 'someone assisting the actor (repeatable)', collect, [])
    .option('--steer <n>', 'steer the result this many grades after the roll', wholeNumber(0, 10), 0)
    .option('--actor-pt <n>', "the actor's Potential Threshold (caps criticals earned, where the rules cap them)", wholeNumber(0, 100))
    .option('--reactor-pt <n>', "the reactor's Potential Threshold", wholeNumber(0, 100))
    .option('--simulate <n>', 'estimate by rolling n challenges (Monte Carlo on worker threads, progress on stderr) instead of computing exactly', sampleCount)
    .option('--seed <n>', 'with --simulate: the seed, for a result that can be repeated (default: a random one, reported)', seedNumber)
    .option('--workers <k>', `with --simulate: worker threads to use (default: the cores available, ${availableParallelism()} here)`, wholeNumber(1, MAX_WORKERS))
    .option('--compare <presets>', 'compare rule sets: the same question under each preset, comma-separated (e.g. core-2011,srd-v4)')
    .option('--compare-option <name=value>', "compare the table's rules with this one option changed (repeatable)", collect, [])
    .option('--csv', 'print the odds table as CSV (with --table: the sweep over pool sizes)')
    .option('--json', 'print one JSON object instead of text')
    .action(async (words: string[], flags: OddsFlags) => {
      const request = readOddsRequest(words, flags);
      if (flags.json && flags.csv) throw new CliError('choose one of --json and --csv');
      let done: OddsReport;
      if (flags.compare !== undefined || flags.compareOption.length > 0) {
        done = executeCompare(request, flags);
      } else if (flags.simulate !== undefined) {
        const { odds, run } = await simulateOdds(request, flags, io);
        done = oddsReport(request, odds, flags, run);
      } else done = oddsReport(request, computeOdds(request), flags);
      if (done.svg !== undefined && flags.plot !== undefined) {
        try {
          await writeFile(flags.plot, done.svg, 'utf8');
        } catch (e) {
          const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : ((e as NodeJS.ErrnoException).code ?? (e as Error).message);
          throw new CliError(`--plot: cannot write "${flags.plot}": ${reason}`);
        }
        if (!flags.json && !flags.csv) done.lines.push('', `Chart written to ${flags.plot}.`);
      }
      if (flags.csv) writeLines(io.stdout, done.csv);
      else if (flags.json) io.stdout(toJson(done.json));
      else writeLines(io.stdout, done.lines);
    });
}
