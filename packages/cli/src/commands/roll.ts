import type { Command } from 'commander';
import { cryptoDice, seededDice, type DiceSource } from '@personae/dice';
import {
  parseDifficulty,
  resolveChallenge,
  resolveUnopposed,
  type ChallengeResult,
  type ChallengeSideSpec,
  type Difficulty,
  type Labeled,
  type SideResult,
} from '@personae/rules';
import { addTableFlags, collect, readDiceList, readSides, readTable, seedNumber, wholeNumber, type PoolInput, type Table, type TableFlags } from '../args.js';
import { toJson } from '../format/json.js';
import { rollText } from '../format/roll.js';
import { CliError, writeLines, type CliIo } from '../io.js';

export interface RollFlags extends TableFlags {
  seed?: number;
  assist: string[];
  steer: number;
  actorPt?: number;
  reactorPt?: number;
  unopposed?: string;
  gmDice?: string;
  json?: boolean;
}

/** Everything a roll needs, read and checked from the command line. */
export interface RollRequest {
  readonly table: Table;
  readonly actor: PoolInput;
  readonly reactor?: PoolInput;
  readonly difficulty?: Difficulty;
  readonly gmDice?: readonly number[];
  readonly seed?: number;
  readonly assistants: readonly string[];
  readonly steer: number;
  readonly actorPotentialThreshold?: number;
  readonly reactorPotentialThreshold?: number;
}

export function readRollRequest(words: readonly string[], flags: RollFlags): RollRequest {
  const table = readTable(flags);
  const unopposed = flags.unopposed !== undefined;
  if (!unopposed && flags.gmDice !== undefined) throw new CliError('--gm-dice is for the GM\'s difficulty roll: use it with --unopposed');
  if (unopposed && flags.reactorPt !== undefined) throw new CliError("--reactor-pt has no use with --unopposed: the GM's difficulty roll earns no criticals");
  const { actor, reactor } = readSides(words, unopposed, table.options, { actor: unopposed ? "the player's dice" : "the actor's dice", reactor: "the reactor's dice" });
  return {
    table,
    actor,
    ...(reactor ? { reactor } : {}),
    ...(unopposed ? { difficulty: parseDifficulty(flags.unopposed!) } : {}),
    ...(flags.gmDice !== undefined ? { gmDice: readDiceList(flags.gmDice, "the GM's dice") } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    assistants: flags.assist,
    steer: flags.steer,
    ...(flags.actorPt !== undefined ? { actorPotentialThreshold: flags.actorPt } : {}),
    ...(flags.reactorPt !== undefined ? { reactorPotentialThreshold: flags.reactorPt } : {}),
  };
}

/** The names the report uses (the GM's side of an unopposed challenge is named by the resolver). */
export function sideNames(request: Pick<RollRequest, 'difficulty'>): { actor: string; reactor: string } {
  // personae-core-2011.txt "Unopposed Challenges": the player rolls against the GM's difficulty roll.
  return request.difficulty === undefined ? { actor: 'Actor', reactor: 'Reactor' } : { actor: 'Player', reactor: 'GM' };
}

function sideSpec(name: string, pool: PoolInput, potentialThreshold: number | undefined): ChallengeSideSpec {
  return {
    name,
    pool: { base: pool.count, baseSource: 'pool' },
    modifiers: pool.modifier === 0 ? [] : [{ value: pool.modifier, source: `from "${pool.text}"` }],
    ...(pool.given ? { given: pool.given } : {}),
    ...(potentialThreshold !== undefined ? { potentialThreshold } : {}),
  };
}

export function diceSourceFor(seed: number | undefined): DiceSource {
  return seed === undefined ? cryptoDice() : seededDice(seed);
}

/** Resolve the challenge the request describes, with dice from the source given. */
export function resolveRoll(request: RollRequest, dice: DiceSource): ChallengeResult {
  const names = sideNames(request);
  const assistants = request.assistants.map((name) => ({ name }));
  const steer: Labeled[] = request.steer > 0 ? [{ value: request.steer, source: `steering (--steer ${request.steer})` }] : [];
  const actor = sideSpec(names.actor, request.actor, request.actorPotentialThreshold);
  if (request.difficulty) {
    return resolveUnopposed(
      { player: actor, difficulty: request.difficulty, assistants, steer, ...(request.gmDice ? { gmGiven: request.gmDice } : {}) },
      dice,
      request.table.options,
    );
  }
  const reactor = sideSpec(names.reactor, request.reactor!, request.reactorPotentialThreshold);
  return resolveChallenge({ actor, reactor, assistants, steer }, dice, request.table.options);
}

function sideJson(side: SideResult, expression: string) {
  return {
    name: side.name,
    expression,
    pool: side.pool.dice,
    dice: [...side.dice],
    modifier: side.modifier,
    naturalTens: side.naturalTens,
    criticals: side.criticals,
    source: side.roll.source,
  };
}

/** The `--json` shape of a roll (docs/cli.md "personae roll --json"). */
export function rollJson(result: ChallengeResult, request: RollRequest, dice: DiceSource) {
  const gmExpression = request.difficulty ? `${result.reactor.dice.length}d10+${request.difficulty.value}` : '';
  return {
    command: 'roll',
    kind: result.kind,
    rules: request.table.preset,
    options: request.table.overrides,
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    dice: dice.kind,
    outcome: result.outcome,
    grade: result.grade,
    decidedBy: result.decidedBy,
    winner: result.winner,
    ...(request.difficulty ? { difficulty: { value: request.difficulty.value, label: request.difficulty.label }, unopposed: request.table.options.unopposed } : {}),
    actor: sideJson(result.actor, request.actor.text),
    reactor: sideJson(result.reactor, request.reactor?.text ?? gmExpression),
    rolled: { actor: [...result.actor.roll.rolled], reactor: [...result.reactor.roll.rolled] },
    steps: result.steps.map((s) => ({ position: s.position, actor: { ...s.actor }, reactor: { ...s.reactor }, result: s.result })),
    assistants: [...request.assistants],
    steer: request.steer,
    previousAttempts: (result.previousAttempts ?? []).map((p) => ({
      actor: [...p.actor.roll.rolled],
      reactor: [...p.reactor.roll.rolled],
      outcome: p.outcome,
    })),
    rulings: result.rulings.map((r) => ({ ...r })),
    explanation: [...result.explanation],
  };
}

export function describeDice(dice: DiceSource, seed: number | undefined): string {
  return dice.kind === 'seeded' ? `seeded dice (seed ${seed})` : dice.kind === 'crypto' ? 'cryptographic dice' : 'entered dice';
}

/** The text report: what was rolled, under which rules, then the result. */
export function rollReport(result: ChallengeResult, request: RollRequest, dice: DiceSource): string[] {
  const allGiven =
    request.actor.given !== undefined &&
    (request.difficulty ? request.gmDice !== undefined : request.reactor?.given !== undefined) &&
    (result.previousAttempts ?? []).length === 0;
  const fresh = allGiven ? `every die entered${request.seed !== undefined ? ` (seed ${request.seed} for any die rolled here)` : ''}` : describeDice(dice, request.seed);
  const title = request.difficulty
    ? `Unopposed challenge: ${result.actor.name} ${request.actor.text} against difficulty ${request.difficulty.label} (+${request.difficulty.value})`
    : `Challenge: ${result.actor.name} ${request.actor.text} vs ${result.reactor.name} ${request.reactor!.text}`;
  const overrides = Object.entries(request.table.overrides).map(([k, v]) => `${k}=${String(v)}`);
  const extras = [
    request.assistants.length > 0 ? `assisted by ${request.assistants.join(', ')}` : '',
    request.steer > 0 ? `steer ${request.steer}` : '',
  ].filter((s) => s !== '');
  const subtitle = `Rules ${request.table.preset}${overrides.length > 0 ? ` with ${overrides.join(', ')}` : ''}; ${fresh}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}.`;
  return rollText(result, { title, subtitle, options: request.table.options });
}

/** The defaults of every roll flag, for callers that build a roll without the command line. */
export const ROLL_DEFAULTS: RollFlags = { rules: 'core-2011', option: [], assist: [], steer: 0 };

/** Read, resolve and report one roll: the text lines and the JSON object. */
export function executeRoll(words: readonly string[], flags: RollFlags): { result: ChallengeResult; lines: string[]; json: ReturnType<typeof rollJson> } {
  const request = readRollRequest(words, flags);
  const dice = diceSourceFor(request.seed);
  const result = resolveRoll(request, dice);
  return { result, lines: rollReport(result, request, dice), json: rollJson(result, request, dice) };
}

export function registerRollCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('roll')
    .summary('roll a challenge and explain it step by step')
    .description(
      'Roll an opposed challenge ("3d10+4" vs "2d10+5"), or resolve dice already rolled ("[7,5,2]+3" vs "[8,6]+2"),\n' +
        'or an unopposed challenge against a difficulty (--unopposed normal). Personae uses d10s only.',
    )
    .usage('<actor> vs <reactor> [options]\n       personae roll <player> --unopposed <difficulty> [options]')
    .argument('[dice...]', 'the actor\'s dice expression, "vs", the reactor\'s dice expression');
  addTableFlags(cmd)
    .option('--seed <n>', 'roll reproducible seeded dice instead of cryptographic dice', seedNumber)
    .option('--unopposed <difficulty>', 'an unopposed challenge: difficulty by name (easy, normal, difficult, ...) or number')
    .option('--gm-dice <list>', 'dice the GM already rolled for the difficulty, e.g. 3,7 (with --unopposed)')
    .option('--assist <name>', 'someone assisting the actor (repeatable)', collect, [])
    .option('--steer <n>', 'steer the result this many grades after the roll', wholeNumber(0, 10), 0)
    .option('--actor-pt <n>', "the actor's Potential Threshold (caps criticals earned, where the rules cap them)", wholeNumber(0, 100))
    .option('--reactor-pt <n>', "the reactor's Potential Threshold", wholeNumber(0, 100))
    .option('--json', 'print one JSON object instead of text')
    .action((words: string[], flags: RollFlags) => {
      const done = executeRoll(words, flags);
      if (flags.json) io.stdout(toJson(done.json));
      else writeLines(io.stdout, done.lines);
    });
}
