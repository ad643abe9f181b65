import { judge, type JudgeContext, type JudgeOptions } from '../challenge/outcome';
import { meetsOnFullTie, type RawComparison } from '../challenge/compare';
import type { ChallengeOdds, OddsOptions } from './types';

/**
 * The odds never decide an outcome themselves. They sort rolls into classes of raw comparison (who won,
 * whether the first pair decided, whether the top dice tied, how many natural 10s each side compared)
 * and hand one representative comparison per class to `judge` (challenge/outcome.ts), which reads
 * nothing else. This module holds those verdicts, one `judge` call per class and table context.
 */

/** Winner codes. */
export const ACTOR = 0;
export const REACTOR = 1;
export const NOBODY = 2;
/** How the comparison was decided: on the first pair, on a later pair, on leftover dice, not at all. */
export const FIRST_PAIR = 0;
export const LATER_PAIR = 1;
export const EXTRA_DICE = 2;
export const UNDECIDED = 3;

const TENS = 4096;

export function classCode(winner: number, decided: number, topTie: boolean, actorTens: number, reactorTens: number): number {
  return (((winner * 4 + decided) * 2 + (topTie ? 1 : 0)) * TENS + actorTens) * TENS + reactorTens;
}

export function classOfRaw(raw: RawComparison): number {
  const w = raw.winner === 'actor' ? ACTOR : raw.winner === 'reactor' ? REACTOR : NOBODY;
  const d = raw.decidedBy === 1 ? FIRST_PAIR : raw.decidedBy === 'extra-dice' ? EXTRA_DICE : raw.decidedBy === null ? UNDECIDED : LATER_PAIR;
  return classCode(w, d, raw.topTie, raw.actorTens, raw.reactorTens);
}

/** A comparison standing for its whole class: `judge` reads only these fields. */
export function representative(code: number): RawComparison {
  const reactorTens = code % TENS;
  let rest = (code - reactorTens) / TENS;
  const actorTens = rest % TENS;
  rest = (rest - actorTens) / TENS;
  const topTie = rest % 2 === 1;
  rest = (rest - (rest % 2)) / 2;
  const decided = rest % 4;
  const winner = (rest - decided) / 4;
  return {
    winner: winner === ACTOR ? 'actor' : winner === REACTOR ? 'reactor' : null,
    decidedBy: decided === FIRST_PAIR ? 1 : decided === LATER_PAIR ? 2 : decided === EXTRA_DICE ? 'extra-dice' : null,
    topTie,
    actorTens,
    reactorTens,
    steps: [],
  };
}

export const SUCCESS = 0;
export const FAILURE = 1;
export const TIE = 2;

/** What `judge` said about one class. */
export interface ClassVerdict {
  readonly outcome: number;
  readonly clear: boolean;
  readonly actorCriticals: number;
  readonly reactorCriticals: number;
  /** A full tie the table rolls again (option fullTie = reroll). */
  readonly rerollFullTie: boolean;
}

/** How raw comparisons reach `judge`: as they are, or through the tie-break unopposed reading. */
export type RawMode = 'opposed' | 'meets-on-full-tie';

export interface VerdictContext {
  readonly actorPotentialThreshold?: number | undefined;
  readonly reactorPotentialThreshold?: number | undefined;
  readonly reactorIsIdentity: boolean;
  readonly steer: number;
  readonly mode: RawMode;
}

/** One class of every kind, by winner, how it was decided and whether the top dice tied. */
const SHAPES: readonly (readonly [number, number, boolean])[] = [
  [ACTOR, FIRST_PAIR, false],
  [ACTOR, LATER_PAIR, true],
  [ACTOR, EXTRA_DICE, true],
  [REACTOR, FIRST_PAIR, false],
  [REACTOR, LATER_PAIR, true],
  [REACTOR, EXTRA_DICE, true],
  [NOBODY, UNDECIDED, true],
  // the literal unopposed reading: meeting the target wins on the first pair with the top dice tied
  [ACTOR, FIRST_PAIR, true],
];

/** Verdicts of one table context (options, thresholds, steering), each class judged once. */
export class VerdictTable {
  private readonly cache = new Map<number, ClassVerdict>();
  private tensMatter: boolean | undefined;
  private criticalsApart: boolean | undefined;

  constructor(
    readonly ctx: JudgeContext,
    readonly mode: RawMode,
  ) {}

  verdict(code: number): ClassVerdict {
    let v = this.cache.get(code);
    if (v === undefined) {
      const raw = representative(code);
      const verdict = judge(this.mode === 'meets-on-full-tie' ? meetsOnFullTie(raw) : raw, this.ctx);
      v = {
        outcome: verdict.outcome === 'success' ? SUCCESS : verdict.outcome === 'failure' ? FAILURE : TIE,
        clear: verdict.grade === 'clear',
        actorCriticals: verdict.criticals.actor,
        reactorCriticals: verdict.criticals.reactor,
        rerollFullTie: verdict.rerollFullTie,
      };
      this.cache.set(code, v);
    }
    return v;
  }

  /**
   * Whether natural 10s can change the outcome or grade under this context (they can under the srd-v4
   * natural-10 rules): asked of `judge` by varying the tens of every kind of class. When they cannot,
   * success-only odds need not track them.
   */
  outcomeDependsOnTens(): boolean {
    if (this.tensMatter === undefined) {
      this.tensMatter = false;
      for (const [w, d, tt] of SHAPES) {
        const base = this.verdict(classCode(w, d, tt, 0, 0));
        for (let a = 0; a <= 3; a++) {
          for (let r = 0; r <= 3; r++) {
            const v = this.verdict(classCode(w, d, tt, a, r));
            if (v.outcome !== base.outcome || v.clear !== base.clear || v.rerollFullTie !== base.rerollFullTie) this.tensMatter = true;
          }
        }
      }
    }
    return this.tensMatter;
  }

  /**
   * Whether each side's criticals follow from its own natural 10s alone, whatever the outcome, and
   * nothing else does (the core-2011 criticals: every 10 beyond the first, win or lose). Then a side's
   * criticals are distributed as its count of 10s, Binomial(pool, 1/10), and exact odds need not follow
   * the 10s through the comparison. Not so when a full tie is rolled again: the 10s of the attempts
   * kept are no longer binomial.
   */
  criticalsFollowOwnTens(): boolean {
    if (this.criticalsApart === undefined) {
      this.criticalsApart = !this.outcomeDependsOnTens();
      for (const [w, d, tt] of SHAPES) {
        for (let a = 0; a <= 4; a++) {
          for (let r = 0; r <= 4; r++) {
            const v = this.verdict(classCode(w, d, tt, a, r));
            const actorAlone = this.verdict(classCode(ACTOR, FIRST_PAIR, false, a, 0)).actorCriticals;
            const reactorAlone = this.verdict(classCode(ACTOR, FIRST_PAIR, false, 0, r)).reactorCriticals;
            if (v.rerollFullTie || v.actorCriticals !== actorAlone || v.reactorCriticals !== reactorAlone) this.criticalsApart = false;
          }
        }
      }
    }
    return this.criticalsApart;
  }
}

const tables = new Map<string, VerdictTable>();
/** The options `judge` reads and their text, by options object (checked again on each use: options can change). */
const judgeKeys = new WeakMap<OddsOptions, { readonly options: JudgeOptions; readonly key: string; last: { readonly ctx: VerdictContext; readonly table: VerdictTable } | null }>();

function sameJudgeOptions(a: JudgeOptions, b: JudgeOptions): boolean {
  return a.criticals === b.criticals && a.fullTie === b.fullTie && a.natTenLowerTotal === b.natTenLowerTotal && a.natTenBothTied === b.natTenBothTied;
}

function sameContext(a: VerdictContext, b: VerdictContext): boolean {
  return (
    a.actorPotentialThreshold === b.actorPotentialThreshold &&
    a.reactorPotentialThreshold === b.reactorPotentialThreshold &&
    a.reactorIsIdentity === b.reactorIsIdentity &&
    a.steer === b.steer &&
    a.mode === b.mode
  );
}

/** The verdict table of a context, shared between queries of the same context. */
export function verdictTable(options: OddsOptions, ctx: VerdictContext): VerdictTable {
  // Listing every option `judge` reads: a new one in JudgeOptions fails to compile here until added.
  const judgeOptions: JudgeOptions = {
    criticals: options.criticals,
    fullTie: options.fullTie,
    natTenLowerTotal: options.natTenLowerTotal,
    natTenBothTied: options.natTenBothTied,
  };
  let known = judgeKeys.get(options);
  if (known === undefined || !sameJudgeOptions(known.options, judgeOptions)) {
    known = { options: judgeOptions, key: JSON.stringify(judgeOptions), last: null };
    judgeKeys.set(options, known);
  }
  // The same options asked about the same context again (queries in a row): no key to build.
  if (known.last !== null && sameContext(known.last.ctx, ctx)) return known.last.table;
  const key = `${known.key}|${ctx.actorPotentialThreshold}|${ctx.reactorPotentialThreshold}|${ctx.reactorIsIdentity}|${ctx.steer}|${ctx.mode}`;
  let table = tables.get(key);
  if (table === undefined) {
    if (tables.size >= 256) tables.clear();
    const judgeCtx: JudgeContext = {
      options: judgeOptions,
      ...(ctx.actorPotentialThreshold !== undefined ? { actorPotentialThreshold: ctx.actorPotentialThreshold } : {}),
      ...(ctx.reactorPotentialThreshold !== undefined ? { reactorPotentialThreshold: ctx.reactorPotentialThreshold } : {}),
      reactorIsIdentity: ctx.reactorIsIdentity,
      steer: ctx.steer > 0 ? [{ value: ctx.steer, source: 'steering' }] : [],
    };
    table = new VerdictTable(judgeCtx, ctx.mode);
    tables.set(key, table);
  }
  known.last = { ctx: { ...ctx }, table };
  return table;
}

/** A criticals distribution from its sums, each times `f` (no criticals at all: certainly none). */
function scaled(xs: readonly number[], f: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < xs.length; i++) out.push((xs[i] ?? 0) * f);
  return out.length > 0 ? out : [1];
}

/** Whatever adds up probability by verdict. */
export interface VerdictSink {
  add(v: ClassVerdict, p: number): void;
}

/** Adds up probability (or counts) by verdict and turns the sums into ChallengeOdds. */
export class OddsTally implements VerdictSink {
  success = 0;
  clear = 0;
  failure = 0;
  tie = 0;
  /** Mass of full ties the table rolls again. */
  rerolled = 0;
  /** Mass of everything else, summed in the order added. */
  kept = 0;
  private readonly critA: number[] = [];
  private readonly critR: number[] = [];
  private rerolledOnly: OddsTally | undefined;

  add(v: ClassVerdict, p: number): void {
    if (v.rerollFullTie) {
      this.rerolled += p;
      (this.rerolledOnly ??= new OddsTally()).add({ ...v, rerollFullTie: false }, p);
      return;
    }
    this.kept += p;
    if (v.outcome === SUCCESS) {
      this.success += p;
      if (v.clear) this.clear += p;
    } else if (v.outcome === FAILURE) this.failure += p;
    else this.tie += p;
    this.critA[v.actorCriticals] = (this.critA[v.actorCriticals] ?? 0) + p;
    this.critR[v.reactorCriticals] = (this.critR[v.reactorCriticals] ?? 0) + p;
  }

  /**
   * Replace the criticals added so far by each side's own distribution, [criticals] = probability
   * (for contexts where criticalsFollowOwnTens holds, so nothing is conditioned away).
   */
  setCriticals(actor: readonly number[], reactor: readonly number[]): void {
    this.critA.length = 0;
    this.critR.length = 0;
    actor.forEach((p, i) => void (this.critA[i] = p * this.kept));
    reactor.forEach((p, i) => void (this.critR[i] = p * this.kept));
  }

  /**
   * The odds, conditioned on the attempt not being a rerolled full tie (option fullTie = reroll: the
   * full tie personae-core-2011.txt "The Challenge" step 4 leaves open is rolled again). When every
   * attempt is one (two empty pools), the resolver ends on a tie after its rerolls, and so do these odds.
   */
  result(method: 'exact' | 'simulation'): ChallengeOdds {
    const kept = this.kept;
    if (this.rerolled > 0 && kept === 0 && this.rerolledOnly) {
      return { ...this.rerolledOnly.result(method), rerolledTie: 1 };
    }
    // A tally of probabilities or of sample counts: normalising serves both.
    const f = kept > 0 ? 1 / kept : 0;
    const success = this.success * f;
    const clearSuccess = this.clear * f;
    const odds: ChallengeOdds = {
      success,
      clearSuccess,
      glancingSuccess: (this.success - this.clear) * f,
      failure: this.failure * f,
      fullTie: this.tie * f,
      criticals: scaled(this.critA, f),
      reactorCriticals: scaled(this.critR, f),
      method,
    };
    if (this.rerolled > 0) odds.rerolledTie = this.rerolled / (this.rerolled + kept);
    return odds;
  }
}
