import { Option, type Command } from 'commander';
import { cryptoDice, seededDice, type DiceSource } from '@personae/dice';
import { poolDice } from '@personae/core';
import {
  parseDifficulty,
  resolveChallenge,
  resolveUnopposed,
  sumLabeled,
  type ChallengeResult,
  type ChallengeSideSpec,
  type Difficulty,
  type Labeled,
  type SideKind,
  type SideResult,
} from '@personae/rules';
import { addTableFlags, collect, readDiceList, readPool, readSides, readTable, seedNumber, signed, wholeNumber, type PoolInput, type Table, type TableFlags } from '../args.js';
import { toJson } from '../format/json.js';
import { rollText } from '../format/roll.js';
import { indent } from '../format/table.js';
import { CliError, writeLines, type CliIo } from '../io.js';
import {
  buildSheetSides,
  CHALLENGE_KINDS,
  commandTokens,
  hasSideArgs,
  NO_SIDE_ARGS,
  readModifier,
  splitSideFlags,
  type SheetSide,
  type SideArgs,
  type SideSplit,
} from '../sheets.js';

export interface RollFlags extends TableFlags {
  seed?: number;
  assist: string[];
  steer: number;
  actorPt?: number;
  reactorPt?: number;
  unopposed?: string;
  gmDice?: string;
  json?: boolean;
  /** Side flags as commander collects them, both sides together; `sides` says which side each is on. */
  sheet?: string[];
  skill?: string[];
  attribute?: string[];
  ability?: string[];
  expertise?: string[];
  kind?: string;
  modifier?: string[];
  /** The side flags by side of "vs", as typed; the command line fills it in. */
  sides?: SideSplit;
}

/** One side of a roll: a dice expression (with any --modifier), or a character sheet. */
export type RollSide =
  | { readonly from: 'dice'; readonly pool: PoolInput; readonly modifiers: readonly Labeled[] }
  | { readonly from: 'sheet'; readonly sheet: SheetSide };

/** Everything a roll needs, read and checked from the command line. */
export interface RollRequest {
  readonly table: Table;
  readonly actor: RollSide;
  readonly reactor?: RollSide;
  /** With a sheet on either side: the kind of challenge, and why. */
  readonly challenge?: { readonly kind: SideKind; readonly reason: string };
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
  const split = flags.sides ?? { actor: NO_SIDE_ARGS, reactor: NO_SIDE_ARGS };
  const sides = hasSideArgs(split) ? readSideArgs(words, unopposed, split, table) : plainSides(words, unopposed, table);
  return {
    table,
    ...sides,
    ...(unopposed ? { difficulty: parseDifficulty(flags.unopposed!) } : {}),
    ...(flags.gmDice !== undefined ? { gmDice: readDiceList(flags.gmDice, "the GM's dice") } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    assistants: flags.assist,
    steer: flags.steer,
    ...(flags.actorPt !== undefined ? { actorPotentialThreshold: flags.actorPt } : {}),
    ...(flags.reactorPt !== undefined ? { reactorPotentialThreshold: flags.reactorPt } : {}),
  };
}

type Sides = Pick<RollRequest, 'actor' | 'reactor' | 'challenge'>;

function roles(unopposed: boolean): { actor: string; reactor: string } {
  return { actor: unopposed ? "the player's dice" : "the actor's dice", reactor: "the reactor's dice" };
}

/** Two dice expressions around "vs", or one with --unopposed. */
function plainSides(words: readonly string[], unopposed: boolean, table: Table): Sides {
  const { actor, reactor } = readSides(words, unopposed, table.options, roles(unopposed));
  const dice = (pool: PoolInput): RollSide => ({ from: 'dice', pool, modifiers: [] });
  return { actor: dice(actor), ...(reactor ? { reactor: dice(reactor) } : {}) };
}

const VERSUS = /^(vs\.?|versus)$/i;

/**
 * Sides given with side flags: each side is a character sheet (--sheet and its flags) or a dice
 * expression (with any --modifier), on its own side of "vs".
 */
function readSideArgs(words: readonly string[], unopposed: boolean, split: SideSplit, table: Table): Sides {
  let tokens = words.map((w) => w.trim()).filter((w) => w !== '');
  if (tokens.length === 1 && /\s(vs\.?|versus)\s/i.test(tokens[0]!)) tokens = tokens[0]!.split(/\s+/);
  const at = tokens.findIndex((t) => VERSUS.test(t));
  if (tokens.filter((t) => VERSUS.test(t)).length > 1) throw new CliError('"vs" appears more than once: a challenge has one actor and one reactor');
  const names = roles(unopposed);
  if (split.actor.sheet === undefined && split.reactor.sheet === undefined && (split.actor.kind ?? split.reactor.kind) !== undefined) {
    throw new CliError('--kind chooses which abilities and armor apply: it goes with --sheet (dice expressions have none)');
  }
  if (unopposed) {
    if (at >= 0) throw new CliError(`--unopposed rolls the player's side against a difficulty: drop "${tokens.slice(at).join(' ')}"${split.reactor.sheet ? ` and the --sheet after it` : ''}`);
    const actor = oneSide(tokens.join(' '), split.actor, names.actor, table);
    const sheets = split.actor.sheet !== undefined ? buildSheetSides({ actor: { file: split.actor.sheet, args: split.actor } }, table.options, { unopposed: true, kinds: [split.actor.kind] }) : undefined;
    return { actor: actor ?? { from: 'sheet', sheet: sheets!.actor! }, ...(sheets ? { challenge: { kind: sheets.kind, reason: sheets.kindReason } } : {}) };
  }
  if (at < 0) {
    throw new CliError(`nothing to roll against: write "vs" and the reactor's dice or --sheet FILE --skill NAME after it, or add --unopposed DIFFICULTY`);
  }
  const actor = oneSide(tokens.slice(0, at).join(' '), split.actor, names.actor, table);
  const reactor = oneSide(tokens.slice(at + 1).join(' '), split.reactor, names.reactor, table);
  const sheetOf = (args: SideArgs) => (args.sheet !== undefined ? { file: args.sheet, args } : undefined);
  const requests = { actor: sheetOf(split.actor), reactor: sheetOf(split.reactor) };
  const sheets =
    requests.actor || requests.reactor
      ? buildSheetSides({ ...(requests.actor ? { actor: requests.actor } : {}), ...(requests.reactor ? { reactor: requests.reactor } : {}) }, table.options, {
          unopposed: false,
          kinds: [split.actor.kind, split.reactor.kind],
        })
      : undefined;
  return {
    actor: actor ?? { from: 'sheet', sheet: sheets!.actor! },
    reactor: reactor ?? { from: 'sheet', sheet: sheets!.reactor! },
    ...(sheets ? { challenge: { kind: sheets.kind, reason: sheets.kindReason } } : {}),
  };
}

/** One side's dice expression, or undefined when a sheet plays that side; the flags must fit which it is. */
function oneSide(text: string, args: SideArgs, role: string, table: Table): RollSide | undefined {
  const where = role.replace(/'s dice$/, '');
  if (args.sheet !== undefined) {
    if (text !== '') throw new CliError(`${where} is either a character sheet or dice: drop "${text}" or --sheet ${args.sheet}`);
    return undefined;
  }
  const stray = (['skill', 'attribute', 'expertise'] as const).find((f) => args[f] !== undefined) ?? (args.abilities.length > 0 ? 'ability' : undefined);
  if (stray) throw new CliError(`--${stray} describes a character sheet: give --sheet FILE on the same side of "vs" (${where})`);
  if (text === '') {
    throw new CliError(role === "the reactor's dice" ? 'nothing after "vs": expected the reactor\'s dice, e.g. "2d10+5", or --sheet FILE --skill NAME' : `nothing before "vs": expected ${role}, e.g. "3d10+4", or --sheet FILE --skill NAME`);
  }
  return { from: 'dice', pool: readPool(text, role, table.options), modifiers: args.modifiers.map(readModifier) };
}

/** The names the report uses: the characters' own for sheets (the GM's side of an unopposed challenge is named by the resolver). */
export function sideNames(request: Pick<RollRequest, 'difficulty' | 'actor' | 'reactor'>): { actor: string; reactor: string } {
  // personae-core-2011.txt "Unopposed Challenges": the player rolls against the GM's difficulty roll.
  const plain = request.difficulty === undefined ? { actor: 'Actor', reactor: 'Reactor' } : { actor: 'Player', reactor: 'GM' };
  const nameOf = (side: RollSide | undefined, fallback: string) => (side?.from === 'sheet' ? side.sheet.def.name : fallback);
  return { actor: nameOf(request.actor, plain.actor), reactor: request.difficulty ? plain.reactor : nameOf(request.reactor, plain.reactor) };
}

function sideSpec(name: string, side: RollSide, potentialThreshold: number | undefined): ChallengeSideSpec {
  const pt = potentialThreshold !== undefined ? { potentialThreshold } : {};
  if (side.from === 'sheet') return { ...side.sheet.built.spec, name, ...pt };
  const { pool } = side;
  const modifiers: Labeled[] = [
    ...(pool.modifier === 0 ? [] : [{ value: pool.modifier, source: `from "${pool.text}"` }]),
    ...side.modifiers.map((m) => ({ value: m.value, source: `${m.source} (--modifier)` })),
  ];
  return {
    name,
    pool: { base: pool.count, baseSource: 'pool' },
    modifiers,
    ...pt,
  };
}

/** The side as typed: the dice expression, or the character and skill. */
function sideText(side: RollSide): string {
  return side.from === 'dice' ? side.pool.text : `with ${side.sheet.skill.name}`;
}

export function diceSourceFor(seed: number | undefined): DiceSource {
  return seed === undefined ? cryptoDice() : seededDice(seed);
}

/** Resolve the challenge the request describes, with dice from the source given. */
export function resolveRoll(request: RollRequest, dice: DiceSource): ChallengeResult {
  const names = sideNames(request);
  const assistants = request.assistants.map((name) => ({ name }));
  const steer: Labeled[] = [
    ...(request.steer > 0 ? [{ value: request.steer, source: `steering (--steer ${request.steer})` }] : []),
    ...(request.actor.from === 'sheet' ? request.actor.sheet.built.steer : []),
  ];
  const actor = sideSpec(names.actor, request.actor, request.actorPotentialThreshold);
  // Dice typed in on the command line fill the sides' named pools; the rest come from `dice`.
  const typed = (side: RollSide | undefined) => (side?.from === 'dice' ? side.pool.given : undefined);
  const pools: Record<string, readonly number[]> = {};
  const actorGiven = typed(request.actor);
  if (actorGiven) pools.actor = actorGiven;
  if (request.difficulty) {
    if (request.gmDice) pools.difficulty = request.gmDice;
    return resolveUnopposed({ player: actor, difficulty: request.difficulty, assistants, steer }, poolDice(pools, dice), request.table.options);
  }
  const reactorGiven = typed(request.reactor);
  if (reactorGiven) pools.reactor = reactorGiven;
  const reactor = sideSpec(names.reactor, request.reactor!, request.reactorPotentialThreshold);
  return resolveChallenge({ actor, reactor, assistants, steer }, poolDice(pools, dice), request.table.options);
}

function sideJson(side: SideResult, input: RollSide | undefined, expression: string) {
  return {
    name: side.name,
    expression: input?.from === 'sheet' ? `${side.pool.dice}d10${signed(side.modifier)}` : expression,
    pool: side.pool.dice,
    dice: [...side.dice],
    modifier: side.modifier,
    naturalTens: side.naturalTens,
    criticals: side.criticals,
    source: side.roll.source,
    ...(input?.from === 'sheet' ? { sheet: sheetJson(input.sheet) } : {}),
  };
}

/** What a sheet side took from its sheet and flags (docs/cli.md "personae roll --json"). */
function sheetJson(s: SheetSide) {
  return {
    file: s.file,
    skill: s.skill.name,
    unskilled: s.skill.unskilled,
    attribute: s.attribute,
    status: s.who.status,
    qualities: [...s.qualities],
    abilities: s.built.chosen.map((a) => a.name),
    expertise: s.expertise?.name ?? null,
    modifiers: s.modifiers.map((m) => ({ value: m.value, source: m.source })),
    extraHits: sumLabeled(s.built.extraHits),
    explanation: [...s.explanation],
  };
}

/** The `--json` shape of a roll (docs/cli.md "personae roll --json"). */
export function rollJson(result: ChallengeResult, request: RollRequest, dice: DiceSource) {
  const gmExpression = request.difficulty ? `${result.reactor.dice.length}d10+${request.difficulty.value}` : '';
  return {
    command: 'roll',
    kind: result.kind,
    ...(request.challenge ? { challenge: request.challenge.kind } : {}),
    rules: request.table.preset,
    options: request.table.overrides,
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    dice: dice.kind,
    outcome: result.outcome,
    grade: result.grade,
    decidedBy: result.decidedBy,
    winner: result.winner,
    ...(request.difficulty ? { difficulty: { value: request.difficulty.value, label: request.difficulty.label }, unopposed: request.table.options.unopposed } : {}),
    actor: sideJson(result.actor, request.actor, request.actor.from === 'dice' ? request.actor.pool.text : ''),
    reactor: sideJson(result.reactor, request.reactor, request.reactor?.from === 'dice' ? request.reactor.pool.text : gmExpression),
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

/** The text report: what was rolled, under which rules, where each side's dice came from, then the result. */
export function rollReport(result: ChallengeResult, request: RollRequest, dice: DiceSource): string[] {
  const given = (side: RollSide | undefined) => side?.from === 'dice' && side.pool.given !== undefined;
  const allGiven = given(request.actor) && (request.difficulty ? request.gmDice !== undefined : given(request.reactor)) && (result.previousAttempts ?? []).length === 0;
  const fresh = allGiven ? `every die entered${request.seed !== undefined ? ` (seed ${request.seed} for any die rolled here)` : ''}` : describeDice(dice, request.seed);
  const kind = request.challenge && request.challenge.kind !== 'other' ? request.challenge.kind : undefined;
  const opening = kind ? `${kind[0]!.toUpperCase()}${kind.slice(1)} challenge` : 'Challenge';
  const title = request.difficulty
    ? `Unopposed challenge: ${result.actor.name} ${sideText(request.actor)} against difficulty ${request.difficulty.label} (+${request.difficulty.value})`
    : `${opening}: ${result.actor.name} ${sideText(request.actor)} vs ${result.reactor.name} ${sideText(request.reactor!)}`;
  const overrides = Object.entries(request.table.overrides).map(([k, v]) => `${k}=${String(v)}`);
  const extras = [
    request.challenge ? `kind ${request.challenge.kind} (${request.challenge.reason})` : '',
    request.assistants.length > 0 ? `assisted by ${request.assistants.join(', ')}` : '',
    request.steer > 0 ? `steer ${request.steer}` : '',
  ].filter((s) => s !== '');
  const subtitle = `Rules ${request.table.preset}${overrides.length > 0 ? ` with ${overrides.join(', ')}` : ''}; ${fresh}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}.`;
  const sheets = [request.actor, request.reactor].flatMap((side) => (side?.from === 'sheet' ? side.sheet.explanation : []));
  return rollText(result, { title, subtitle, options: request.table.options, ...(sheets.length > 0 ? { preface: ['From the sheets:', ...indent(sheets)] } : {}) });
}

/** Commander's collector for side flags: every value, both sides together (`sides` splits them). */
function collectSide(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
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
    .usage(
      '<actor> vs <reactor> [options]\n' +
        '       personae roll <player> --unopposed <difficulty> [options]\n' +
        '       personae roll --sheet <file> --skill <name> [side options] vs --sheet <file> --skill <name> [side options]',
    )
    .argument('[dice...]', 'the actor\'s dice expression, "vs", the reactor\'s dice expression');
  addTableFlags(cmd)
    .option('--seed <n>', 'roll reproducible seeded dice instead of cryptographic dice', seedNumber)
    .option('--unopposed <difficulty>', 'an unopposed challenge: difficulty by name (easy, normal, difficult, ...) or number')
    .option('--gm-dice <list>', 'dice the GM already rolled for the difficulty, e.g. 3,7 (with --unopposed)')
    .option('--assist <name>', 'someone assisting the actor (repeatable)', collect, [])
    .option('--steer <n>', 'steer the result this many grades after the roll', wholeNumber(0, 10), 0)
    .option('--actor-pt <n>', "the actor's Potential Threshold (caps criticals earned, where the rules cap them)", wholeNumber(0, 100))
    .option('--reactor-pt <n>', "the reactor's Potential Threshold", wholeNumber(0, 100))
    .option('--sheet <file>', 'side option: a character sheet plays this side (before "vs" the actor, after it the reactor)', collectSide)
    .option('--skill <name>', "side option: the skill the sheet's character rolls (unskilled, 1 die, if the sheet lacks it)", collectSide)
    .option('--attribute <name>', "side option: the attribute added, when not the skill's own", collectSide)
    .option('--ability <name>', 'side option: the special ability used (one a turn; Qualities apply by themselves)', collectSide)
    .option('--expertise <name>', 'side option: call on an Expertise talent for its extra dice', collectSide)
    .option('--modifier <text>', 'side option: a circumstantial modifier and what it is for, e.g. "+1 high ground" (repeatable)', collectSide)
    .addOption(new Option('--kind <kind>', 'the kind of challenge, for ability scopes and armor (default: read from the skills)').choices(CHALLENGE_KINDS))
    .option('--json', 'print one JSON object instead of text')
    .action((words: string[], flags: RollFlags, command: Command) => {
      const sides = splitSideFlags(commandTokens(command), command.options);
      const done = executeRoll(words, { ...flags, sides });
      if (flags.json) io.stdout(toJson(done.json));
      else writeLines(io.stdout, done.lines);
    });
}
