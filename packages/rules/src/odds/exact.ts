import { binomialTables, row } from './binomial';
import { ACTOR, classCode, EXTRA_DICE, FIRST_PAIR, LATER_PAIR, NOBODY, REACTOR, UNDECIDED, type ClassVerdict, type VerdictSink, type VerdictTable } from './verdicts';

/**
 * Exact distribution of the raw comparison of two pools of independent d10s (personae-core-2011.txt
 * "The Challenge" steps 2-4: sort, add the modifier, compare pair by pair, leftover dice break a tie
 * that lasts).
 *
 * Totals are walked as levels from the highest down. A level is a total t: the actor's dice showing
 * t - actorModifier and the reactor's showing t - reactorModifier. While every pair so far tied, both
 * sides have used the same number k of dice, and their remaining dice are known only to lie at or below the
 * level, so the count at the next level is binomial (see binomial.ts). Equal counts keep the tie going;
 * otherwise the side with more dice at the level wins at pair k + (the smaller count) + 1, or on leftover
 * dice when the other side has just run out; both running out together is a full tie.
 *
 * Natural 10s: a side's tens are its count at its own face-10 level. A decision reached before that level
 * leaves the side's dice untouched, so its tens are Binomial(pool, 1/10). When tens are tracked, a tied
 * state also carries the tens settled so far (a "tag"); tags are few because a tie can only pass a side's
 * face-10 level with equal counts.
 */

/** Terminal classes: who won and how. */
export const A_FIRST = 0;
export const A_LATER = 1;
export const A_EXTRA = 2;
export const R_FIRST = 3;
export const R_LATER = 4;
export const R_EXTRA = 5;
export const FULL_TIE = 6;
export const CLASSES = 7;

const CLASS_WINNER = [ACTOR, ACTOR, ACTOR, REACTOR, REACTOR, REACTOR, NOBODY];
const CLASS_DECIDED = [FIRST_PAIR, LATER_PAIR, EXTRA_DICE, FIRST_PAIR, LATER_PAIR, EXTRA_DICE, UNDECIDED];

/** The verdict-table code of a terminal class with known tens. */
export function terminalCode(cls: number, actorTens: number, reactorTens: number): number {
  const d = CLASS_DECIDED[cls]!;
  return classCode(CLASS_WINNER[cls]!, d, d !== FIRST_PAIR, actorTens, reactorTens);
}

/**
 * The terminal class of a decidingPair result (challenge/compare.ts) with `pairs` pairs to compare:
 * compareDice reports a deciding position beyond the pairs as leftover dice, a first-pair decision
 * with untied top dice, any other with tied top dice.
 */
export function classOfDecision(at: number, pairs: number): number {
  if (at === 0) return FULL_TIE;
  const pos = at > 0 ? at : -at;
  return (at > 0 ? A_FIRST : R_FIRST) + (pos > pairs ? 2 : pos === 1 ? 0 : 1);
}

/**
 * Probability of each terminal class, indexed [class][actor tens + 1][reactor tens + 1] where tens -1
 * means "not looked at: Binomial(pool, 1/10)". Untracked: one tens cell per class.
 */
export interface TerminalClasses {
  readonly actorDice: number;
  readonly reactorDice: number;
  readonly tracked: boolean;
  readonly dimA: number;
  readonly dimR: number;
  readonly mass: Float64Array;
}

let bufCur = new Float64Array(256);
let bufNext = new Float64Array(256);
let bufTerm = new Float64Array(256);
let tagA = new Int32Array(16);
let tagR = new Int32Array(16);
let tagIndex = new Int32Array(64);

/** The largest pool the exact engine takes; larger pools are simulated. */
export const MAX_EXACT_DICE = 300;

/**
 * Distribution of terminal classes for `actorDice` against `reactorDice` d10s with modifier difference
 * `diff` (actor minus reactor). The returned mass array is scratch space, valid until the next call.
 */
export function iidComparison(actorDice: number, reactorDice: number, diff: number, track: boolean): TerminalClasses {
  const n = actorDice;
  const m = reactorDice;
  const t = binomialTables(Math.max(n, m));
  const pmf = t.pmf;
  const tail = t.tail;
  const dimA = track ? n + 2 : 1;
  const dimR = track ? m + 2 : 1;
  const termSize = CLASSES * dimA * dimR;
  if (bufTerm.length < termSize) bufTerm = new Float64Array(termSize * 2);
  const term = bufTerm;
  term.fill(0, 0, termSize);
  const result: TerminalClasses = { actorDice: n, reactorDice: m, tracked: track, dimA, dimR, mass: term };
  const K = Math.min(n, m);

  if (K === 0) {
    // No pairs to compare: leftover dice decide, or nothing does (compare.ts); the dice are untouched.
    if (n === m) term[(FULL_TIE * dimA + (track ? 1 : 0)) * dimR + (track ? 1 : 0)] = 1;
    else if (n > m) term[(A_EXTRA * dimA + 0) * dimR + (track ? 1 : 0)] = 1;
    else term[(R_EXTRA * dimA + (track ? 1 : 0)) * dimR + 0] = 1;
    return result;
  }

  if (!track) {
    plainWalk(n, m, diff, term);
    return result;
  }
  const cell = (cls: number, ta: number, tr: number): number => (cls * dimA + ta + 1) * dimR + tr + 1;

  const K1 = K + 1;
  let tagCap = K + 4;
  if (tagA.length < tagCap) {
    tagA = new Int32Array(tagCap * 2);
    tagR = new Int32Array(tagCap * 2);
  }
  tagCap = tagA.length;
  if (bufCur.length < tagCap * K1) {
    bufCur = new Float64Array(tagCap * K1 * 2);
    bufNext = new Float64Array(tagCap * K1 * 2);
  }
  const lookupSize = track ? (n + 2) * (m + 2) : 1;
  if (tagIndex.length < lookupSize) tagIndex = new Int32Array(lookupSize * 2);
  tagIndex.fill(-1, 0, lookupSize);

  let cur = bufCur;
  let next = bufNext;
  let tags = 1;
  tagA[0] = -1;
  tagR[0] = -1;
  tagIndex[0] = 0;
  cur.fill(0, 0, K1);
  cur[0] = 1;

  const tagOf = (ta: number, tr: number): number => {
    const key = track ? (ta + 1) * (m + 2) + tr + 1 : 0;
    let idx = tagIndex[key]!;
    if (idx < 0) {
      if (tags === tagA.length) {
        const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
          const b = new Int32Array(a.length * 2);
          b.set(a);
          return b;
        };
        tagA = grow(tagA);
        tagR = grow(tagR);
        const c2 = new Float64Array(tagA.length * K1);
        c2.set(cur.subarray(0, tags * K1));
        const n2 = new Float64Array(tagA.length * K1);
        n2.set(next.subarray(0, tags * K1));
        cur = bufCur = c2;
        next = bufNext = n2;
      }
      idx = tags++;
      tagA[idx] = ta;
      tagR[idx] = tr;
      tagIndex[key] = idx;
      next.fill(0, idx * K1, idx * K1 + K1);
    }
    return idx;
  };

  const top = 10 + Math.max(diff, 0);
  const bottom = 1 + Math.min(diff, 0);
  // Tracking tens, the walk stops after the lower of the two face-10 levels: below it every tie has both
  // sides' tens settled, and lowerLevels() gives where each tie goes from there.
  const last = track ? 10 + Math.min(diff, 0) : bottom;
  for (let level = top; level >= last; level--) {
    const fa = level - diff;
    const fr = level;
    const aTen = track && fa === 10;
    const rTen = track && fr === 10;
    const tagsAtStart = tags;
    next.fill(0, 0, tagsAtStart * K1);
    for (let g = 0; g < tagsAtStart; g++) {
      const ta = tagA[g]!;
      const tr = tagR[g]!;
      const off = g * K1;
      for (let k = 0; k < K; k++) {
        const p = cur[off + k]!;
        if (p === 0) continue;
        const a = n - k;
        const r = m - k;
        const ra = row(t, fa, a);
        const rr = row(t, fr, r);
        const both = a < r ? a : r;
        // Equal counts: the tie goes on (or ends when a side runs out).
        for (let c = 0; c <= both; c++) {
          const q = pmf[ra + c]! * pmf[rr + c]!;
          if (q === 0) continue;
          const nta = aTen ? c : ta;
          const ntr = rTen ? c : tr;
          const k2 = k + c;
          if (k2 === K) {
            const i = cell(n === m ? FULL_TIE : n > m ? A_EXTRA : R_EXTRA, nta, ntr);
            term[i] = term[i]! + p * q;
          } else {
            const i = tagOf(nta, ntr) * K1 + k2;
            next[i] = next[i]! + p * q;
          }
        }
        // The actor has more dice at this level than the reactor's c.
        const aMax = a - 1 < r ? a - 1 : r;
        for (let c = 0; c <= aMax; c++) {
          const pr = pmf[rr + c]!;
          if (pr === 0) continue;
          const cls = c === r ? A_EXTRA : k + c === 0 ? A_FIRST : A_LATER;
          const rt = rTen ? c : tr;
          if (aTen) {
            for (let x = c + 1; x <= a; x++) {
              const px = pmf[ra + x]!;
              if (px === 0) continue;
              const i = cell(cls, x, rt);
              term[i] = term[i]! + p * pr * px;
            }
          } else {
            const w = tail[ra + c + 1]!;
            if (w !== 0) {
              const i = cell(cls, ta, rt);
              term[i] = term[i]! + p * pr * w;
            }
          }
        }
        // The reactor has more dice at this level than the actor's c.
        const rMax = r - 1 < a ? r - 1 : a;
        for (let c = 0; c <= rMax; c++) {
          const pa = pmf[ra + c]!;
          if (pa === 0) continue;
          const cls = c === a ? R_EXTRA : k + c === 0 ? R_FIRST : R_LATER;
          const at = aTen ? c : ta;
          if (rTen) {
            for (let x = c + 1; x <= r; x++) {
              const px = pmf[rr + x]!;
              if (px === 0) continue;
              const i = cell(cls, at, x);
              term[i] = term[i]! + p * pa * px;
            }
          } else {
            const w = tail[rr + c + 1]!;
            if (w !== 0) {
              const i = cell(cls, at, tr);
              term[i] = term[i]! + p * pa * w;
            }
          }
        }
      }
    }
    const swap = cur;
    cur = next;
    next = swap;
  }
  if (last > bottom) {
    const v = lowerLevels(n, m, diff, last - 1, bottom);
    for (let g = 0; g < tags; g++) {
      const ta = tagA[g]!;
      const tr = tagR[g]!;
      const off = g * K1;
      const base = cell(0, ta, tr);
      const stride = dimA * dimR;
      for (let k = 0; k < K; k++) {
        const p = cur[off + k]!;
        if (p === 0) continue;
        const vk = k * CLASSES;
        for (let cls = 0; cls < CLASSES; cls++) {
          const w = v[vk + cls]!;
          if (w !== 0) term[base + cls * stride] = term[base + cls * stride]! + p * w;
        }
      }
    }
  }
  bufCur = cur;
  bufNext = next;
  return result;
}

let bufPlain = new Float64Array(64);
let bufPlainNext = new Float64Array(64);

/**
 * The walk without natural 10s: one state per count of dice used in the tie, terminal mass by class
 * into term[class]. The same transitions as iidComparison's, without tags.
 */
function plainWalk(n: number, m: number, diff: number, term: Float64Array): void {
  const t = binomialTables(Math.max(n, m));
  const pmf = t.pmf;
  const tail = t.tail;
  const K = Math.min(n, m);
  if (bufPlain.length < K + 1) {
    bufPlain = new Float64Array(2 * K + 2);
    bufPlainNext = new Float64Array(2 * K + 2);
  }
  let cur = bufPlain;
  let next = bufPlainNext;
  cur.fill(0, 0, K + 1);
  cur[0] = 1;
  const end = n === m ? FULL_TIE : n > m ? A_EXTRA : R_EXTRA;
  let aFirst = 0;
  let aLater = 0;
  let aExtra = 0;
  let rFirst = 0;
  let rLater = 0;
  let rExtra = 0;
  let ended = 0;
  const top = 10 + Math.max(diff, 0);
  const bottom = 1 + Math.min(diff, 0);
  for (let level = top; level >= bottom; level--) {
    const fa = level - diff;
    next.fill(0, 0, K + 1);
    for (let k = 0; k < K; k++) {
      const p = cur[k]!;
      if (p === 0) continue;
      const a = n - k;
      const r = m - k;
      const ra = row(t, fa, a);
      const rr = row(t, level, r);
      const both = a < r ? a : r;
      for (let c = 0; c <= both; c++) {
        const q = p * pmf[ra + c]! * pmf[rr + c]!;
        if (k + c === K) ended += q;
        else next[k + c] = next[k + c]! + q;
      }
      const aMax = a - 1 < r ? a - 1 : r;
      for (let c = 0; c <= aMax; c++) {
        const w = p * pmf[rr + c]! * tail[ra + c + 1]!;
        if (c === r) aExtra += w;
        else if (k + c === 0) aFirst += w;
        else aLater += w;
      }
      const rMax = r - 1 < a ? r - 1 : a;
      for (let c = 0; c <= rMax; c++) {
        const w = p * pmf[ra + c]! * tail[rr + c + 1]!;
        if (c === a) rExtra += w;
        else if (k + c === 0) rFirst += w;
        else rLater += w;
      }
    }
    const swap = cur;
    cur = next;
    next = swap;
  }
  bufPlain = cur;
  bufPlainNext = next;
  term[A_FIRST] = aFirst;
  term[A_LATER] = aLater;
  term[A_EXTRA] = aExtra;
  term[R_FIRST] = rFirst;
  term[R_LATER] = rLater;
  term[R_EXTRA] = rExtra;
  term[end] = term[end]! + ended;
}

let bufValue = new Float64Array(256);
let bufValueNext = new Float64Array(256);

/**
 * Where a tie goes from the levels `from` down to `bottom`, whatever the tens settled above: entry
 * [k * CLASSES + cls] is the chance that a tie with k dice of each side used, entering level `from`,
 * ends in terminal class cls. Built from the bottom level up (each level's answer is the next lower
 * one's, moved by that level's counts), so it costs the plain walk's work once per class, not once per
 * pair of settled tens.
 */
function lowerLevels(n: number, m: number, diff: number, from: number, bottom: number): Float64Array {
  const t = binomialTables(Math.max(n, m));
  const pmf = t.pmf;
  const tail = t.tail;
  const K = Math.min(n, m);
  const size = (K + 1) * CLASSES;
  if (bufValue.length < size) {
    bufValue = new Float64Array(size * 2);
    bufValueNext = new Float64Array(size * 2);
  }
  let below = bufValue;
  let here = bufValueNext;
  // Below the bottom level every tie has ended: one side's dice all show its lowest face there.
  below.fill(0, 0, size);
  const end = n === m ? FULL_TIE : n > m ? A_EXTRA : R_EXTRA;
  for (let level = bottom; level <= from; level++) {
    const fa = level - diff;
    const fr = level;
    here.fill(0, 0, size);
    for (let k = 0; k < K; k++) {
      const a = n - k;
      const r = m - k;
      const ra = row(t, fa, a);
      const rr = row(t, fr, r);
      const h = k * CLASSES;
      const both = a < r ? a : r;
      let v0 = 0;
      let v1 = 0;
      let v2 = 0;
      let v3 = 0;
      let v4 = 0;
      let v5 = 0;
      let v6 = 0;
      // Equal counts: the tie goes on to the next level with k + c dice used, or ends with no dice left.
      for (let c = 0; c <= both; c++) {
        const q = pmf[ra + c]! * pmf[rr + c]!;
        if (q === 0) continue;
        if (k + c === K) {
          here[h + end] = here[h + end]! + q;
          continue;
        }
        const b = (k + c) * CLASSES;
        v0 += q * below[b]!;
        v1 += q * below[b + 1]!;
        v2 += q * below[b + 2]!;
        v3 += q * below[b + 3]!;
        v4 += q * below[b + 4]!;
        v5 += q * below[b + 5]!;
        v6 += q * below[b + 6]!;
      }
      here[h + A_FIRST] = here[h + A_FIRST]! + v0;
      here[h + A_LATER] = here[h + A_LATER]! + v1;
      here[h + A_EXTRA] = here[h + A_EXTRA]! + v2;
      here[h + R_FIRST] = here[h + R_FIRST]! + v3;
      here[h + R_LATER] = here[h + R_LATER]! + v4;
      here[h + R_EXTRA] = here[h + R_EXTRA]! + v5;
      here[h + FULL_TIE] = here[h + FULL_TIE]! + v6;
      // The actor has more dice at this level than the reactor's c.
      const aMax = a - 1 < r ? a - 1 : r;
      for (let c = 0; c <= aMax; c++) {
        const w = pmf[rr + c]! * tail[ra + c + 1]!;
        if (w === 0) continue;
        const cls = c === r ? A_EXTRA : k + c === 0 ? A_FIRST : A_LATER;
        here[h + cls] = here[h + cls]! + w;
      }
      // The reactor has more dice at this level than the actor's c.
      const rMax = r - 1 < a ? r - 1 : a;
      for (let c = 0; c <= rMax; c++) {
        const w = pmf[ra + c]! * tail[rr + c + 1]!;
        if (w === 0) continue;
        const cls = c === a ? R_EXTRA : k + c === 0 ? R_FIRST : R_LATER;
        here[h + cls] = here[h + cls]! + w;
      }
    }
    const swap = below;
    below = here;
    here = swap;
  }
  bufValue = below;
  bufValueNext = here;
  return below;
}

/** Each table's verdicts by terminal class and tens, filled as they are asked for. */
const terminalVerdicts = new WeakMap<VerdictTable, { readonly a: number; readonly r: number; readonly verdicts: (ClassVerdict | undefined)[] }>();

function verdictsFor(table: VerdictTable, n: number, m: number): { readonly a: number; readonly r: number; readonly verdicts: (ClassVerdict | undefined)[] } {
  let d = terminalVerdicts.get(table);
  if (d === undefined || d.a < n || d.r < m) {
    const a = Math.max(n, d?.a ?? 0, 8);
    const r = Math.max(m, d?.r ?? 0, 8);
    d = { a, r, verdicts: new Array<ClassVerdict | undefined>(CLASSES * (a + 1) * (r + 1)) };
    terminalVerdicts.set(table, d);
  }
  return d;
}

/**
 * Each side's criticals when they follow its own natural 10s alone (VerdictTable.criticalsFollowOwnTens):
 * its count of 10s is Binomial(pool, 1/10) whatever happens in the comparison.
 */
export function criticalsOfOwnTens(table: VerdictTable, actorDice: number, reactorDice: number): { actor: readonly number[]; reactor: readonly number[] } {
  let known = ownTensCriticals.get(table);
  if (!known) ownTensCriticals.set(table, (known = new Map()));
  const key = actorDice * (MAX_EXACT_DICE + 1) + reactorDice;
  let crits = known.get(key);
  if (!crits) {
    if (known.size >= 4096) known.clear();
    crits = countOwnTensCriticals(table, actorDice, reactorDice);
    known.set(key, crits);
  }
  return crits;
}

/** criticalsOfOwnTens by table and pools (the arrays are shared: never changed once made). */
const ownTensCriticals = new WeakMap<VerdictTable, Map<number, { readonly actor: readonly number[]; readonly reactor: readonly number[] }>>();

function countOwnTensCriticals(table: VerdictTable, actorDice: number, reactorDice: number): { actor: readonly number[]; reactor: readonly number[] } {
  const t = binomialTables(Math.max(actorDice, reactorDice));
  const actor: number[] = [];
  const reactor: number[] = [];
  const binA = row(t, 10, actorDice);
  for (let x = 0; x <= actorDice; x++) {
    const c = table.verdict(terminalCode(A_FIRST, x, 0)).actorCriticals;
    actor[c] = (actor[c] ?? 0) + t.pmf[binA + x]!;
  }
  const binR = row(t, 10, reactorDice);
  for (let y = 0; y <= reactorDice; y++) {
    const c = table.verdict(terminalCode(A_FIRST, 0, y)).reactorCriticals;
    reactor[c] = (reactor[c] ?? 0) + t.pmf[binR + y]!;
  }
  for (const xs of [actor, reactor]) for (let i = 0; i < xs.length; i++) xs[i] ??= 0;
  return { actor, reactor };
}

/**
 * Send every terminal class through the verdict table. Tens not looked at are spread as
 * Binomial(pool, 1/10); untracked classes are judged with no natural 10s, which is right only when the
 * table says tens cannot change the outcome (and criticals are not wanted).
 */
export function foldTerminal(tc: TerminalClasses, table: VerdictTable, tally: VerdictSink): void {
  const { dimA, dimR, mass, actorDice: n, reactorDice: m } = tc;
  const t = binomialTables(Math.max(n, m));
  const binA = row(t, 10, n);
  const binR = row(t, 10, m);
  const { a: da, r: dr, verdicts } = verdictsFor(table, n, m);
  const verdict = (cls: number, x: number, y: number): ClassVerdict => {
    const i = (cls * (da + 1) + x) * (dr + 1) + y;
    return verdicts[i] ?? (verdicts[i] = table.verdict(terminalCode(cls, x, y)));
  };
  for (let cls = 0; cls < CLASSES; cls++) {
    for (let ia = 0; ia < dimA; ia++) {
      for (let ir = 0; ir < dimR; ir++) {
        const p = mass[(cls * dimA + ia) * dimR + ir]!;
        if (p === 0) continue;
        if (!tc.tracked) {
          tally.add(verdict(cls, 0, 0), p);
          continue;
        }
        const aLo = ia === 0 ? 0 : ia - 1;
        const aHi = ia === 0 ? n : ia - 1;
        const rLo = ir === 0 ? 0 : ir - 1;
        const rHi = ir === 0 ? m : ir - 1;
        for (let x = aLo; x <= aHi; x++) {
          const px = ia === 0 ? t.pmf[binA + x]! : 1;
          if (px === 0) continue;
          for (let y = rLo; y <= rHi; y++) {
            const py = ir === 0 ? t.pmf[binR + y]! : 1;
            if (py === 0) continue;
            tally.add(verdict(cls, x, y), p * px * py);
          }
        }
      }
    }
  }
}
