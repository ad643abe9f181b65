import type { Labeled } from '../effects';
import type { TableOptions } from '../options';
import type { RawComparison } from './compare';

export type Outcome = 'success' | 'failure' | 'tie';
export type Grade = 'clear' | 'glancing';

/** A rule that changed or shaped the result, with the document and section it comes from. */
export interface Ruling {
  readonly rule: string;
  readonly source: string;
  readonly text: string;
}

export type JudgeOptions = Pick<TableOptions, 'criticals' | 'fullTie' | 'natTenLowerTotal' | 'natTenBothTied'>;

export interface JudgeContext {
  readonly options: JudgeOptions;
  /** Caps criticals earned in one challenge under the web and srd-v4 rules. */
  readonly actorPotentialThreshold?: number;
  readonly reactorPotentialThreshold?: number;
  /**
   * Whether the reactor is an identity answering the challenge (false for the GM's difficulty roll in
   * an unopposed challenge: it earns no criticals and its natural 10s have no special effect).
   */
  readonly reactorIsIdentity?: boolean;
  /** Steering applied after the result is known, one grade per step (srd-v4). */
  readonly steer?: readonly Labeled[];
}

export interface Verdict {
  readonly outcome: Outcome;
  readonly grade: Grade | null;
  readonly criticals: { readonly actor: number; readonly reactor: number };
  readonly rulings: readonly Ruling[];
  /** The table rerolls full ties (option fullTie = reroll) and this attempt was one. */
  readonly rerollFullTie: boolean;
}

const CORE = 'personae-core-2011.txt';
const WEB = 'personae-playing-web.txt';
const V4 = 'personae-v4-srd-playing.txt';

/**
 * Turn a raw comparison into the challenge's outcome, grade and criticals under the table's options.
 * The resolver and the exact-odds engine both call this, so a rule is read in one place only.
 */
export function judge(raw: RawComparison, ctx: JudgeContext): Verdict {
  const { options } = ctx;
  const reactorIsIdentity = ctx.reactorIsIdentity ?? true;
  const rulings: Ruling[] = [];
  let outcome: Outcome;
  if (raw.winner === 'actor') outcome = 'success';
  else if (raw.winner === 'reactor') outcome = 'failure';
  else {
    // personae-core-2011.txt "The Challenge" step 4 leaves a tie with equal pools open: table option fullTie.
    outcome = options.fullTie === 'actor' ? 'success' : options.fullTie === 'reactor' ? 'failure' : 'tie';
    rulings.push({
      rule: 'full tie',
      source: `${CORE} "The Challenge" (option fullTie = ${options.fullTie})`,
      text:
        options.fullTie === 'tie' || options.fullTie === 'reroll'
          ? 'every die tied with equal pools: neither side succeeds'
          : `every die tied with equal pools: ties go to the ${options.fullTie}`,
    });
  }
  // A success is clear when the highest dice decided it, glancing when it took a tie-break or leftover dice
  // (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering").
  let grade: Grade | null = outcome === 'success' ? (raw.decidedBy === 1 ? 'clear' : 'glancing') : null;

  if (options.criticals === 'srd-v4') {
    const natA = raw.actorTens > 0;
    const natR = reactorIsIdentity && raw.reactorTens > 0;
    const responderPrevails = natR && !(natA && options.natTenBothTied === 'challenger');
    if (raw.topTie && responderPrevails) {
      if (outcome !== 'failure') {
        rulings.push({ rule: "responder's natural 10", source: `${V4} "Critical Success" (respond)`, text: 'the responder rolled a natural 10: the challenger fails although the totals tied' });
      }
      outcome = 'failure';
      grade = null;
    } else if (raw.topTie && natA && raw.winner !== 'actor') {
      rulings.push({ rule: "challenger's natural 10", source: `${V4} "Critical Success" (challenge)`, text: 'the challenger rolled a natural 10 and the totals tied: a glancing success without winning the tie' });
      outcome = 'success';
      grade = 'glancing';
    } else if (!raw.topTie && raw.winner === 'reactor' && natA && options.natTenLowerTotal === 'glancing-success') {
      rulings.push({ rule: 'natural 10 guarantees success', source: `${V4} "Critical Success" (option natTenLowerTotal = glancing-success)`, text: 'the challenger rolled a natural 10 with a lower total: a glancing success' });
      outcome = 'success';
      grade = 'glancing';
    }
  }

  const criticals = earnedCriticals(raw, outcome, ctx, reactorIsIdentity, rulings);
  const rerollFullTie = outcome === 'tie' && options.fullTie === 'reroll';

  const steer = ctx.steer ?? [];
  for (let s = 0; s < steer.length; s++) {
    const step = steer[s]!;
    for (let i = 0; i < step.value; i++) {
      const before = describe(outcome, grade);
      if (outcome !== 'success') {
        outcome = 'success';
        grade = 'glancing';
      } else if (grade === 'glancing') {
        grade = 'clear';
      } else {
        rulings.push({ rule: 'steering', source: `${V4} "Clear Success, Glancing Success, and Steering"`, text: `${step.source}: already a clear success, nothing to steer` });
        continue;
      }
      rulings.push({ rule: 'steering', source: `${V4} "Clear Success, Glancing Success, and Steering"`, text: `${step.source} steers ${before} to ${describe(outcome, grade)}` });
    }
  }
  return { outcome, grade, criticals, rulings, rerollFullTie };
}

function describe(outcome: Outcome, grade: Grade | null): string {
  return outcome === 'success' ? `${grade} success` : outcome;
}

function cap(n: number, threshold: number | undefined): number {
  return threshold === undefined ? n : Math.min(n, threshold);
}

function earnedCriticals(raw: RawComparison, outcome: Outcome, ctx: JudgeContext, reactorIsIdentity: boolean, rulings: Ruling[]): { actor: number; reactor: number } {
  const { criticals } = ctx.options;
  let actor = 0;
  let reactor = 0;
  if (criticals === 'core-2011') {
    // personae-core-2011.txt "Critical Success": every unadjusted 10 beyond the first, win or lose.
    actor = Math.max(0, raw.actorTens - 1);
    reactor = reactorIsIdentity ? Math.max(0, raw.reactorTens - 1) : 0;
  } else if (criticals === 'web') {
    // personae-playing-web.txt "Critical Success": beyond the first, only when the challenge is won.
    if (outcome === 'success') actor = cap(Math.max(0, raw.actorTens - 1), ctx.actorPotentialThreshold);
    if (outcome === 'failure' && reactorIsIdentity) reactor = cap(Math.max(0, raw.reactorTens - 1), ctx.reactorPotentialThreshold);
  } else {
    // personae-v4-srd-playing.txt "Critical Success": a challenger who wins outright with a natural 10
    // banks one, plus one per further natural 10; nothing after a tie-break; a responder never banks.
    if (outcome === 'success' && raw.winner === 'actor' && !raw.topTie && raw.actorTens > 0) {
      actor = cap(raw.actorTens, ctx.actorPotentialThreshold);
    } else if (raw.actorTens > 0 && outcome === 'success') {
      rulings.push({ rule: 'no critical after a tie', source: `${V4} "Critical Success" (challenge)`, text: 'the success came from a tie, so no critical is banked' });
    }
  }
  return { actor, reactor };
}
