import { InvalidArgumentError, Option, type Command } from 'commander';
import { DiceExpressionError, parseDiceExpression } from '@personae/dice';
import { PRESETS, isPreset, parseOptionAssignment, tableOptions, type OptionName, type Preset, type TableOptions } from '@personae/rules';
import { CliError } from './io.js';

/** Personae rolls ten-sided dice only (personae-core-2011.txt "The Challenge": "The only dice you'll need are ten-sided"). */
export const SIDES = 10;

/** Commander's collector for repeatable flags. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A commander argument parser for a whole number in a range; the message names the range. */
export function wholeNumber(min: number, max: number): (value: string) => number {
  return (value) => {
    const text = value.trim();
    if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    return n;
  };
}

/** A commander argument parser for a seed: any whole number. */
export function seedNumber(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number.');
  return n;
}

/** The flags every command that consults the table's rules shares. */
export interface TableFlags {
  rules: Preset;
  option: string[];
}

/** `--rules PRESET` and repeatable `--option name=value`. */
export function addTableFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--rules <preset>', 'rules preset the table plays by').choices(PRESETS).default('core-2011'))
    .option('--option <name=value>', 'set one table option, e.g. fullTie=reactor (repeatable; see docs/options.md)', collect, []);
}

export interface Table {
  readonly preset: Preset;
  readonly options: TableOptions;
  /** Only the options set with --option, as typed values. */
  readonly overrides: Readonly<Record<string, unknown>>;
}

/** The table's options: the preset, then every --option in order (a later one wins). */
export function readTable(flags: TableFlags): Table {
  const preset = flags.rules;
  if (!isPreset(preset)) throw new CliError(`unknown rules preset "${String(preset)}"; known presets: ${PRESETS.join(', ')}`);
  const overrides: Partial<Record<OptionName, unknown>> = {};
  for (const text of flags.option) {
    const [name, value] = parseOptionAssignment(text);
    overrides[name] = value;
  }
  return { preset, options: tableOptions(preset, overrides as Partial<TableOptions>), overrides };
}

/** One side's pool as typed: "3d10+4" (dice to roll) or "[7,5,2]+3" (dice already rolled). */
export interface PoolInput {
  readonly text: string;
  readonly count: number;
  /** The dice as entered, in the order given; absent when the dice are to be rolled. */
  readonly given?: readonly number[];
  readonly modifier: number;
}

/**
 * Read one side's dice expression. Only d10s (personae-core-2011.txt "The Challenge"), and never
 * fewer dice than the table's minimum pool (option minimumPool, from personae-core-2011.txt "Skills":
 * an unskilled character still rolls one die).
 */
export function readPool(text: string, role: string, options: Pick<TableOptions, 'minimumPool'>): PoolInput {
  let expression;
  try {
    expression = parseDiceExpression(text, SIDES);
  } catch (e) {
    if (e instanceof DiceExpressionError) throw new DiceExpressionError(`${role}: ${e.message}`);
    throw e;
  }
  if (expression.sides !== SIDES) {
    throw new DiceExpressionError(`${role}: "${expression.text}" rolls d${expression.sides}, but Personae uses ten-sided dice only (write d10)`);
  }
  const count = expression.kind === 'roll' ? expression.count : expression.dice.length;
  if (count < options.minimumPool) {
    throw new DiceExpressionError(
      `${role}: "${expression.text}" has no dice, but this table rolls at least ${options.minimumPool} (option minimumPool = ${options.minimumPool})`,
    );
  }
  return {
    text: expression.text,
    count,
    modifier: expression.modifier,
    ...(expression.kind === 'given' ? { given: [...expression.dice] } : {}),
  };
}

/** The two expressions of an opposed challenge, or the one of an unopposed challenge. */
export interface Matchup {
  readonly actor: string;
  readonly reactor?: string;
}

const VERSUS = /^(vs\.?|versus)$/i;

/**
 * Split the positional words into actor and reactor around "vs". Unquoted spaces are fine
 * ("3d10 + 4 vs 2d10 + 5"), and so is the whole matchup in one quoted word ("3d10+4 vs 2d10+5").
 */
export function readMatchup(words: readonly string[], unopposed: boolean): Matchup {
  let tokens = words.map((w) => w.trim()).filter((w) => w !== '');
  if (tokens.length === 1 && /\s(vs\.?|versus)\s/i.test(tokens[0]!)) tokens = tokens[0]!.split(/\s+/);
  const at = tokens.findIndex((t) => VERSUS.test(t));
  if (tokens.length === 0) {
    throw new CliError(unopposed ? 'missing the player\'s dice, e.g. "3d10+3"' : 'missing the dice: write the actor\'s and the reactor\'s, e.g. "3d10+4" vs "2d10+5"');
  }
  if (unopposed) {
    if (at >= 0) throw new CliError(`--unopposed rolls the player's dice against a difficulty: drop "${tokens.slice(at).join(' ')}"`);
    return { actor: tokens.join(' ') };
  }
  if (at < 0) {
    if (tokens.length <= 1) {
      throw new CliError(`nothing to roll against: write "${tokens[0] ?? '3d10+4'}" vs "2d10+5", or add --unopposed DIFFICULTY`);
    }
    throw new CliError(`expected "vs" between the two pools, got "${tokens.join(' ')}"`);
  }
  const actor = tokens.slice(0, at).join(' ');
  const rest = tokens.slice(at + 1);
  if (actor === '') throw new CliError('nothing before "vs": expected the actor\'s dice, e.g. "3d10+4"');
  if (rest.length === 0) throw new CliError('nothing after "vs": expected the reactor\'s dice, e.g. "2d10+5"');
  if (rest.some((t) => VERSUS.test(t))) throw new CliError('"vs" appears more than once: a challenge has one actor and one reactor');
  return { actor, reactor: rest.join(' ') };
}

export interface Sides {
  readonly actor: PoolInput;
  readonly reactor?: PoolInput;
}

/**
 * Read both sides from the positional words. A lone expression that is not dice at all is reported
 * as such, before saying that an opponent is missing.
 */
export function readSides(words: readonly string[], unopposed: boolean, options: Pick<TableOptions, 'minimumPool'>, roles: { actor: string; reactor: string }): Sides {
  const tokens = words.map((w) => w.trim()).filter((w) => w !== '');
  if (!unopposed && tokens.length === 1 && !/\s(vs\.?|versus)\s/i.test(tokens[0]!)) readPool(tokens[0]!, roles.actor, options);
  const matchup = readMatchup(tokens, unopposed);
  const actor = readPool(matchup.actor, roles.actor, options);
  return matchup.reactor === undefined ? { actor } : { actor, reactor: readPool(matchup.reactor, roles.reactor, options) };
}

/** Dice typed in for the GM's difficulty roll: "3,7" or "[3,7]". */
export function readDiceList(text: string, role: string): number[] {
  const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '');
  const items = inner.split(/[\s,]+/).filter((s) => s !== '');
  if (items.length === 0) throw new CliError(`${role}: no dice in "${text}"; expected something like 3,7`);
  return items.map((item, i) => {
    const n = Number(item);
    if (!/^\d+$/.test(item) || n < 1 || n > SIDES) throw new CliError(`${role}: die #${i + 1} ("${item}") is not a d10 result from 1 to ${SIDES}`);
    return n;
  });
}

/** "+4", "-1", "+0". */
export function signed(n: number): string {
  return n >= 0 ? `+${n}` : `${n}`;
}

/**
 * The known word closest to a mistyped one, for a "did you mean" hint: case is ignored, and the word
 * must be within about one edit in three letters (at least one edit).
 */
export function closestWord(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(w.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(w, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Edits (insert, delete, replace, swap two neighbours) turning a into b. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
