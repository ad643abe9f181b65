import { asPoolDice, cite, type PoolDice } from '@personae/core';
import { knownRoll, type DiceSource, type Roll } from '@personae/dice';
import { formatLabeled, sumLabeled, type Labeled } from '../effects';
import type { TableOptions } from '../options';
import { compareDice, compareHighestMeets, meetsOnFullTie, type CompareStep, type DecidedBy, type RawComparison, type Side } from './compare';
import type { Difficulty } from './difficulty';
import { judge, type Grade, type JudgeContext, type Outcome, type Ruling } from './outcome';
import { poolSize, type PoolResult, type PoolSpec } from './pool';
import { applyReroll, ignoreDice, type RerollRecord, type RerollSpec } from './reroll';

/** One side of a challenge, as declared before any die is rolled. */
export interface ChallengeSideSpec {
  readonly name: string;
  readonly pool: PoolSpec;
  /** The attribute and every circumstantial addition, each with its source. */
  readonly modifiers: readonly Labeled[];
  /** This side's own reroll abilities. */
  readonly rerolls?: readonly RerollSpec[];
  /** Abilities of this side that make the opponent reroll. */
  readonly forceRerolls?: readonly RerollSpec[];
  /** Armor: how many of the opponent's dice this side ignores (attack challenges). */
  readonly ignoreOpponentDice?: Labeled;
  readonly potentialThreshold?: number;
  /**
   * The named pool its initial roll takes (physical dice entered for that pool, else the host's):
   * absent, "actor" or "reactor" by its place, "difficulty" for the GM's dice against an unopposed challenge.
   */
  readonly dicePool?: string;
}

/** A pool typed in rather than taken from a character: "3d10+4", or dice entered from the table. */
export interface FreePool {
  readonly name: string;
  readonly dice: number;
  readonly modifiers: readonly Labeled[];
  readonly potentialThreshold?: number;
}

export function freePoolSide(side: FreePool): ChallengeSideSpec {
  return {
    name: side.name,
    pool: { base: side.dice, baseSource: `${side.dice}d10` },
    modifiers: side.modifiers,
    ...(side.potentialThreshold !== undefined ? { potentialThreshold: side.potentialThreshold } : {}),
  };
}

/** Someone helping the primary actor (personae-core-2011.txt "Assisting in a Challenge"). */
export interface Assistant {
  readonly name: string;
}

export interface OpposedChallengeSpec {
  readonly actor: ChallengeSideSpec;
  readonly reactor: ChallengeSideSpec;
  readonly assistants?: readonly Assistant[];
  /** Steering from abilities or spent criticals, applied once the result is known. */
  readonly steer?: readonly Labeled[];
  /** A critical spent before rolling for an automatic success. */
  readonly automaticSuccess?: { readonly source: string };
}

export interface UnopposedChallengeSpec {
  readonly player: ChallengeSideSpec;
  readonly difficulty: Difficulty;
  readonly assistants?: readonly Assistant[];
  readonly steer?: readonly Labeled[];
  /** A critical spent before rolling for an automatic success: no die is rolled. */
  readonly automaticSuccess?: { readonly source: string };
}

export interface SideResult {
  readonly name: string;
  readonly pool: PoolResult;
  readonly roll: Roll;
  readonly rerolls: readonly RerollRecord[];
  /** Dice set aside by the opponent's armor. */
  readonly ignored: readonly number[];
  /** The dice compared, sorted high to low. */
  readonly dice: readonly number[];
  readonly modifiers: readonly Labeled[];
  readonly modifier: number;
  readonly naturalTens: number;
  readonly criticals: number;
  /** The side's Potential Threshold, when it capped criticals (web and srd-v4 rules). */
  readonly potentialThreshold?: number;
  /**
   * What this side's abilities did to the dice, as declared (absent when nothing): its own rerolls, the
   * rerolls it forced on the opponent and how many opposing dice its armor ignored. The exact odds of the
   * challenge read them (oddsOfRolled), so they count what the engine rolled.
   */
  readonly diceAbilities?: DiceAbilities;
}

/** The abilities of one side that act on dice between the roll and the comparison. */
export interface DiceAbilities {
  readonly rerolls?: readonly RerollSpec[];
  readonly forceRerolls?: readonly RerollSpec[];
  readonly ignoreOpponentDice?: number;
}

function diceAbilitiesOf(spec: ChallengeSideSpec): DiceAbilities | undefined {
  const ignore = spec.ignoreOpponentDice?.value ?? 0;
  if (!spec.rerolls?.length && !spec.forceRerolls?.length && ignore <= 0) return undefined;
  return {
    ...(spec.rerolls?.length ? { rerolls: spec.rerolls } : {}),
    ...(spec.forceRerolls?.length ? { forceRerolls: spec.forceRerolls } : {}),
    ...(ignore > 0 ? { ignoreOpponentDice: ignore } : {}),
  };
}

export interface ChallengeResult {
  readonly kind: 'opposed' | 'unopposed' | 'subsequent' | 'automatic';
  readonly actor: SideResult;
  readonly reactor: SideResult;
  readonly steps: readonly CompareStep[];
  readonly winner: Side | null;
  readonly decidedBy: DecidedBy;
  readonly outcome: Outcome;
  readonly grade: Grade | null;
  readonly criticals: { readonly actor: number; readonly reactor: number };
  readonly rulings: readonly Ruling[];
  readonly difficulty?: Difficulty;
  /** Earlier attempts that ended in a full tie, when the table rerolls full ties. */
  readonly previousAttempts?: readonly ChallengeResult[];
  /** Steering applied once the result was known, each step with its source. */
  readonly steer?: readonly Labeled[];
  /** Criticals kept to steer after the dice, spent only if needed (personae-v4-srd-playing.txt "Critical Success"). */
  readonly criticalSteer?: number;
  /** Every step in words, for the log and the screen. */
  readonly explanation: readonly string[];
}

export type ChallengeOptions = Pick<
  TableOptions,
  'criticals' | 'fullTie' | 'natTenLowerTotal' | 'natTenBothTied' | 'minimumPool' | 'bonusDiceMayExceedCap' | 'assist' | 'maxAssistants' | 'armorIgnores' | 'unopposed'
>;

export class ChallengeError extends Error {
  override readonly name = 'ChallengeError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const MAX_FULL_TIE_REROLLS = 20;
const CORE = 'personae-core-2011.txt';

/**
 * What assistants give the primary actor, by the table's assist option:
 * personae-core-2011.txt "Assisting in a Challenge" (+1 to the result each),
 * personae-playing-web.txt "Assisting In A Challenge" (+1 die each),
 * personae-v4-srd-playing.txt "Assisting in a Challenge" (each steers one grade).
 */
export function assistBenefit(assistants: readonly Assistant[], options: Pick<TableOptions, 'assist' | 'maxAssistants'>): { modifiers: Labeled[]; bonusDice: Labeled[]; steer: Labeled[] } {
  if (options.maxAssistants !== null && assistants.length > options.maxAssistants) {
    throw new ChallengeError('assistants', `${assistants.length} assistants, but the table allows at most ${options.maxAssistants} (option maxAssistants)`);
  }
  const each = assistants.map((a) => ({ value: 1, source: `assist (${a.name})` }));
  if (options.assist === 'core-2011') return { modifiers: each, bonusDice: [], steer: [] };
  if (options.assist === 'web') return { modifiers: [], bonusDice: each, steer: [] };
  return { modifiers: [], bonusDice: [], steer: each };
}

const NO_LABELS: readonly Labeled[] = Object.freeze([]);
const NO_ATTEMPTS: readonly ChallengeResult[] = Object.freeze([]);
const NO_STEER = { steer: NO_LABELS };

function withAssistance(side: ChallengeSideSpec, assistants: readonly Assistant[] | undefined, steer: readonly Labeled[] | undefined, options: ChallengeOptions): { side: ChallengeSideSpec; steer: readonly Labeled[] } {
  // No one assisting: the side as declared (the limit of option maxAssistants is never below 0).
  if (!assistants?.length && (options.maxAssistants === null || options.maxAssistants >= 0)) return { side, steer: steer ?? NO_LABELS };
  const benefit = assistBenefit(assistants ?? [], options);
  const pool: PoolSpec = { ...side.pool, bonusDice: [...(side.pool.bonusDice ?? []), ...benefit.bonusDice] };
  return { side: { ...side, pool, modifiers: [...side.modifiers, ...benefit.modifiers] }, steer: [...benefit.steer, ...(steer ?? [])] };
}

/** personae-core-2011.txt "The Challenge": each side rolls its pool of d10s. */
const CHALLENGE_RULE = cite(CORE, 'The Challenge');
/** The pool rerolls and full-tie rerolls take their dice from. */
export const REROLLS = 'rerolls';

/** Where a side's initial roll comes from: its named pool, entered or the host's, checked against the pool's size. */
function rollSide(side: ChallengeSideSpec, pool: PoolResult, dice: PoolDice, place: string): Roll {
  return dice.roll(side.dicePool ?? place, pool.dice, 10, CHALLENGE_RULE, () => `${side.name}'s roll (${pool.explanation})`);
}

interface Prepared {
  spec: ChallengeSideSpec;
  pool: PoolResult;
  roll: Roll;
  rerolls: RerollRecord[];
  ignored: number[];
  dice: number[];
}

/** Roll both sides, apply rerolls (own, then forced) and armor, in that order. */
function prepareSides(actor: ChallengeSideSpec, reactor: ChallengeSideSpec, pools: PoolDice, options: ChallengeOptions, fresh: boolean): [Prepared, Prepared] {
  // Rerolls, and every die of a full-tie reroll, come from the pool "rerolls".
  const dice = pools.pool(REROLLS);
  const from = fresh ? asPoolDice(dice) : pools;
  const a = prepare(actor, options, from, 'actor');
  const r = prepare(reactor, options, from, 'reactor');
  rerollBy(a, r, dice);
  rerollBy(r, a, dice);
  ignoreBy(a, r, options);
  ignoreBy(r, a, options);
  return [a, r];
}

/** `self`'s own rerolls, then those it forces on `other`. */
function rerollBy(self: Prepared, other: Prepared, dice: DiceSource): void {
  const own = self.spec.rerolls ?? NO_REROLLS;
  for (let i = 0; i < own.length; i++) {
    const out = applyReroll(self.dice, own[i]!, 'own', dice);
    self.dice = out.sorted;
    self.rerolls.push(...out.records);
  }
  const forced = self.spec.forceRerolls ?? NO_REROLLS;
  for (let i = 0; i < forced.length; i++) {
    const out = applyReroll(other.dice, forced[i]!, 'forced', dice);
    other.dice = out.sorted;
    other.rerolls.push(...out.records);
  }
}

/** The opposing dice `self`'s armor sets aside (option armorIgnores). */
function ignoreBy(self: Prepared, other: Prepared, options: ChallengeOptions): void {
  if (self.spec.ignoreOpponentDice && self.spec.ignoreOpponentDice.value > 0) {
    const out = ignoreDice(other.dice, self.spec.ignoreOpponentDice.value, options.armorIgnores);
    other.dice = out.kept;
    other.ignored.push(...out.ignored);
  }
}

const NO_REROLLS: readonly RerollSpec[] = Object.freeze([]);

function prepare(spec: ChallengeSideSpec, options: ChallengeOptions, dice: PoolDice, field: string): Prepared {
  const pool = poolSize(spec.pool, options);
  const roll = rollSide(spec, pool, dice, field);
  // The sorted roll is compared as it is: rerolls and armor replace the array, never change it.
  return { spec, pool, roll, rerolls: [], ignored: [], dice: roll.sorted as number[] };
}

type Building<T> = { -readonly [K in keyof T]: T[K] };

function sideResult(p: Prepared, criticals: number, tens: number): SideResult {
  const diceAbilities = diceAbilitiesOf(p.spec);
  const side: Building<SideResult> = {
    name: p.spec.name,
    pool: p.pool,
    roll: p.roll,
    rerolls: p.rerolls,
    ignored: p.ignored,
    dice: p.dice,
    modifiers: p.spec.modifiers,
    modifier: sumLabeled(p.spec.modifiers),
    naturalTens: tens,
    criticals,
  };
  if (p.spec.potentialThreshold !== undefined) side.potentialThreshold = p.spec.potentialThreshold;
  if (diceAbilities) side.diceAbilities = diceAbilities;
  return side;
}

/**
 * An opposed challenge: actor against reactor, resolved from the dice the source gives. Given a pool
 * source, each side's initial roll takes its named pool and rerolls the pool "rerolls".
 */
export function resolveChallenge(spec: OpposedChallengeSpec, dice: DiceSource, options: ChallengeOptions): ChallengeResult {
  const { side: actor, steer } = withAssistance(spec.actor, spec.assistants, spec.steer, options);
  if (spec.automaticSuccess) return automaticSuccess(actor, spec.reactor, spec.automaticSuccess.source, options);
  const pools = asPoolDice(dice);
  const attempts: ChallengeResult[] = [];
  for (;;) {
    // Entered dice belong to the first attempt; a full-tie reroll takes fresh dice from the source.
    const fresh = attempts.length > 0;
    const [a, r] = prepareSides(actor, spec.reactor, pools, options, fresh);
    const raw = compareDice(a.dice, sumLabeled(actor.modifiers), r.dice, sumLabeled(spec.reactor.modifiers));
    // An attempt rerolled for a full tie lists no attempts of its own: only the final result lists them all.
    const result = finish('opposed', a, r, raw, NO_STEER, options, NO_ATTEMPTS, undefined);
    if (result.outcome === 'tie' && options.fullTie === 'reroll' && attempts.length < MAX_FULL_TIE_REROLLS) {
      attempts.push(result);
      continue;
    }
    return steer.length > 0 || attempts.length > 0 ? finish('opposed', a, r, raw, { steer }, options, attempts, undefined) : result;
  }
}

/**
 * An unopposed challenge (personae-core-2011.txt "Unopposed Challenges"): the GM rolls one die fewer
 * than the player's skill rating (at least one) and adds the difficulty; the player must meet or beat it.
 */
export function resolveUnopposed(spec: UnopposedChallengeSpec, dice: DiceSource, options: ChallengeOptions): ChallengeResult {
  const { side: player, steer } = withAssistance(spec.player, spec.assistants, spec.steer, options);
  const gmDice = unopposedGmDice(spec.player.pool.base);
  const gm: ChallengeSideSpec = {
    name: 'GM',
    pool: { base: gmDice, baseSource: `difficulty roll (one less than ${spec.player.pool.base}, at least 1)` },
    modifiers: [{ value: spec.difficulty.value, source: `difficulty ${spec.difficulty.label}` }],
    dicePool: 'difficulty',
  };
  if (spec.automaticSuccess) return { ...automaticSuccess(player, gm, spec.automaticSuccess.source, options), difficulty: spec.difficulty };
  // The GM's pool is at least one die by its own rule, whatever the table's minimumPool.
  const [a, r] = prepareSides(player, gm, asPoolDice(dice), options, false);
  const raw =
    options.unopposed === 'highest-die'
      ? compareHighestMeets(a.dice, sumLabeled(player.modifiers), r.dice, spec.difficulty.value)
      : meetsOnFullTie(compareDice(a.dice, sumLabeled(player.modifiers), r.dice, spec.difficulty.value));
  return finish('unopposed', a, r, raw, { steer, reactorIsIdentity: false }, options, NO_ATTEMPTS, spec.difficulty);
}

/**
 * The comparison a result was judged by, made again from its dice: for an unopposed challenge the
 * reading of option unopposed against its difficulty, otherwise the opposed comparison. Used to judge
 * a result again with steering added after the dice.
 */
export function comparisonOf(result: ChallengeResult, options: Pick<ChallengeOptions, 'unopposed'>): RawComparison {
  const { actor, reactor } = result;
  if (result.kind === 'unopposed' && result.difficulty) {
    return options.unopposed === 'highest-die'
      ? compareHighestMeets(actor.dice, actor.modifier, reactor.dice, result.difficulty.value)
      : meetsOnFullTie(compareDice(actor.dice, actor.modifier, reactor.dice, reactor.modifier));
  }
  return compareDice(actor.dice, actor.modifier, reactor.dice, reactor.modifier);
}

/** How many dice the GM rolls against a skill of this rating: one fewer, at least one. */
export function unopposedGmDice(skillRating: number): number {
  return Math.max(1, skillRating - 1);
}

/**
 * A subsequent challenge (personae-core-2011.txt "Subsequent vs. Additional Challenges"): issued and
 * answered with the next-highest dice of the rolls already made, like a tie-break.
 */
export function resolveSubsequent(previous: ChallengeResult, options: ChallengeOptions, steer: readonly Labeled[] = []): ChallengeResult {
  if (previous.actor.dice.length < 2) {
    throw new ChallengeError('actor', `${previous.actor.name} has no next-highest die left to issue a subsequent challenge with`);
  }
  const next = (s: SideResult): Prepared => ({
    spec: { name: s.name, pool: { base: s.pool.base, baseSource: 'remaining dice' }, modifiers: s.modifiers },
    pool: { ...s.pool, dice: Math.max(0, s.dice.length - 1) },
    roll: s.roll,
    rerolls: [],
    ignored: [],
    dice: s.dice.slice(1),
  });
  const a = next(previous.actor);
  const r = next(previous.reactor);
  const raw = compareDice(a.dice, previous.actor.modifier, r.dice, previous.reactor.modifier);
  return finish('subsequent', a, r, raw, { steer, reactorIsIdentity: previous.kind !== 'unopposed' }, options, NO_ATTEMPTS, previous.difficulty);
}

function automaticSuccess(actor: ChallengeSideSpec, reactor: ChallengeSideSpec, source: string, options: ChallengeOptions): ChallengeResult {
  const empty = (s: ChallengeSideSpec): SideResult => ({
    name: s.name,
    pool: poolSize(s.pool, options),
    roll: knownRoll([]),
    rerolls: [],
    ignored: [],
    dice: [],
    modifiers: s.modifiers,
    modifier: sumLabeled(s.modifiers),
    naturalTens: 0,
    criticals: 0,
  });
  const ruling: Ruling = {
    rule: 'automatic success',
    source: 'personae-playing-web.txt "Critical Success"; personae-v4-srd-playing.txt "Critical Success" (steer before knowing the result)',
    text: `${source}: the challenge succeeds without a roll`,
  };
  return {
    kind: 'automatic',
    actor: empty(actor),
    reactor: empty(reactor),
    steps: [],
    winner: 'actor',
    decidedBy: null,
    outcome: 'success',
    grade: 'clear',
    criticals: { actor: 0, reactor: 0 },
    rulings: [ruling],
    explanation: [`${actor.name} succeeds automatically against ${reactor.name}: ${source}.`],
  };
}

function finish(
  kind: ChallengeResult['kind'],
  a: Prepared,
  r: Prepared,
  raw: RawComparison,
  extra: { steer: readonly Labeled[]; reactorIsIdentity?: boolean },
  options: ChallengeOptions,
  attempts: readonly ChallengeResult[],
  difficulty: Difficulty | undefined,
): ChallengeResult {
  const context: Building<JudgeContext> = { options };
  if (a.spec.potentialThreshold !== undefined) context.actorPotentialThreshold = a.spec.potentialThreshold;
  if (r.spec.potentialThreshold !== undefined) context.reactorPotentialThreshold = r.spec.potentialThreshold;
  context.reactorIsIdentity = extra.reactorIsIdentity ?? true;
  context.steer = extra.steer;
  const verdict = judge(raw, context);
  const result = {
    kind,
    actor: sideResult(a, verdict.criticals.actor, raw.actorTens),
    reactor: sideResult(r, verdict.criticals.reactor, raw.reactorTens),
    steps: raw.steps,
    winner: raw.winner,
    decidedBy: raw.decidedBy,
    outcome: verdict.outcome,
    grade: verdict.grade,
    criticals: verdict.criticals,
    rulings: verdict.rulings,
  } as Building<ChallengeResult>;
  // Keys in this order, explanation last: the event's text follows it.
  if (difficulty) result.difficulty = difficulty;
  if (attempts.length > 0) result.previousAttempts = attempts;
  if (extra.steer.length > 0) result.steer = extra.steer;
  result.explanation = explain(result, options);
  return result;
}

function dieList(dice: readonly number[]): string {
  return dice.length === 0 ? '(none)' : dice.join(', ');
}

function modifierText(side: SideResult): string {
  if (side.modifiers.length === 0) return '+0';
  let text = '';
  for (let i = 0; i < side.modifiers.length; i++) text += i === 0 ? formatLabeled(side.modifiers[i]!) : `, ${formatLabeled(side.modifiers[i]!)}`;
  return `${text} = ${side.modifier >= 0 ? '+' : ''}${side.modifier}`;
}

/** The challenge in words, step by step. */
export function explain(result: Omit<ChallengeResult, 'explanation'>, options: Pick<TableOptions, 'unopposed' | 'armorIgnores'> & Partial<Pick<TableOptions, 'grades'>>): string[] {
  const lines: string[] = [];
  if (result.previousAttempts?.length) {
    lines.push(`${result.previousAttempts.length} earlier attempt(s) ended in a full tie and were rerolled (option fullTie = reroll).`);
  }
  explainSideInto(lines, result.actor, result.kind, options);
  explainSideInto(lines, result.reactor, result.kind, options);
  if (result.kind === 'subsequent') lines.push('Subsequent challenge: each side compares from its next-highest die.');
  if (result.kind === 'unopposed' && options.unopposed === 'highest-die') {
    const s = result.steps[0]!;
    lines.push(`Highest dice: ${result.actor.name} ${s.actor.die}${signed(result.actor.modifier)} = ${s.actor.total} against target ${s.reactor.die}${signed(result.reactor.modifier)} = ${s.reactor.total}: ${s.actor.total >= s.reactor.total ? 'meets or beats it' : 'falls short'} (${CORE} "Unopposed Challenges").`);
  } else {
    for (let i = 0; i < result.steps.length; i++) {
      const s = result.steps[i]!;
      const verdict = s.result === 'tie' ? 'tie' : `${s.result === 'actor' ? result.actor.name : result.reactor.name} wins`;
      lines.push(`Pair #${s.position}: ${s.actor.die}${signed(result.actor.modifier)} = ${s.actor.total} against ${s.reactor.die}${signed(result.reactor.modifier)} = ${s.reactor.total}: ${verdict}.`);
    }
    if (result.decidedBy === 'extra-dice') {
      const winner = result.winner === 'actor' ? result.actor : result.reactor;
      const loser = result.winner === 'actor' ? result.reactor : result.actor;
      lines.push(`Every compared pair tied; ${loser.name} has no dice left and ${winner.name} does: ${winner.name} wins on extra dice.`);
    } else if (result.decidedBy === null && result.kind !== 'automatic') {
      lines.push('Every pair tied and both pools are the same size: a full tie.');
    }
  }
  for (let i = 0; i < result.rulings.length; i++) lines.push(`${result.rulings[i]!.text} (${result.rulings[i]!.source}).`);
  const how = result.decidedBy === 1 ? 'decided on the highest dice' : result.decidedBy === 'extra-dice' ? 'decided by extra dice' : typeof result.decidedBy === 'number' ? `decided by tie-break at pair #${result.decidedBy}` : 'no pair decided';
  lines.push(`${outcomeLine(result, options.grades !== 'core-2011')} (${how}).`);
  lines.push(`Criticals: ${result.actor.name} ${result.criticals.actor}, ${result.reactor.name} ${result.criticals.reactor}.`);
  return lines;
}

/** One side of a challenge in words: its pool, its dice, rerolls, armor and modifier. */
export function explainSide(side: SideResult, kind: ChallengeResult['kind'], options: Pick<TableOptions, 'armorIgnores'>): string[] {
  return explainSideInto([], side, kind, options);
}

function explainSideInto(lines: string[], side: SideResult, kind: ChallengeResult['kind'], options: Pick<TableOptions, 'armorIgnores'>): string[] {
  lines.push(`${side.name}: ${side.pool.explanation}.`);
  if (kind !== 'subsequent') {
    lines.push(`${side.name} rolled ${dieList(side.roll.rolled)}${side.roll.source === 'given' ? ' (entered)' : ''}; sorted ${dieList(side.roll.sorted)}.`);
  }
  for (let i = 0; i < side.rerolls.length; i++) {
    const rr = side.rerolls[i]!;
    const who = rr.kind === 'own' ? side.name : `${side.name} (forced)`;
    lines.push(`${who} rerolls the ${ordinal(rr.position)} die (${rr.source}): ${rr.old} -> ${rr.new}, keeps ${rr.kept}.`);
  }
  if (side.ignored.length) lines.push(`${side.name}'s ${dieList(side.ignored)} set aside by armor (option armorIgnores = ${options.armorIgnores}).`);
  if (side.rerolls.length || side.ignored.length) lines.push(`${side.name} compares ${dieList(side.dice)}.`);
  lines.push(`${side.name}'s modifier: ${modifierText(side)}.`);
  return lines;
}

/**
 * "Outcome for <actor>: clear success", without how it was decided. Ungraded (option grades =
 * core-2011) a success is only a success: the clear and glancing words are srd-v4's.
 */
export function outcomeLine(result: Pick<ChallengeResult, 'actor' | 'outcome' | 'grade'>, graded = true): string {
  const gradeText = result.outcome === 'success' ? (graded && result.grade ? `${result.grade} success` : 'success') : result.outcome;
  return `Outcome for ${result.actor.name}: ${gradeText}`;
}

function signed(n: number): string {
  return n >= 0 ? `+${n}` : `${n}`;
}

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] ?? s[v] ?? s[0]!);
}
