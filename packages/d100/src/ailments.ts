import type { Element, RegularElement } from './elements';
import { REGULAR_ELEMENTS } from './elements';
import type { D100Options } from './options';
import type { Score } from './scores';
import type { TestResult } from './test';

/**
 * Ailments (d100-combat-rules.txt, ailments passage after "Fate Points"): four categories, one
 * ailment per category at a time; each lists the elements that score Technical Hits on it and a
 * default duration that an effect naming its own duration overrides.
 */
export const AILMENT_CATEGORIES = ['staggered', 'physical', 'mental', 'spiritual'] as const;
export type AilmentCategory = (typeof AILMENT_CATEGORIES)[number];

export const AILMENT_NAMES = ['staggered', 'burning', 'dizzy', 'frozen', 'shocked', 'drowsed', 'stunned', 'amnesiac', 'brainwashed', 'confused', 'despaired', 'enraged', 'panicked', 'condemned', 'damned'] as const;
export type AilmentName = (typeof AILMENT_NAMES)[number];

/**
 * How an ailment ends when nothing says otherwise: after a number of the sufferer's own turns, at
 * the start of its next turn, or only when an event ends it (put out, takes damage, passes a test).
 */
export type AilmentEnd =
  | { readonly kind: 'turns'; readonly turns: number }
  | { readonly kind: 'next-turn-start' }
  | { readonly kind: 'until'; readonly what: string };

export interface AilmentDef {
  readonly name: AilmentName;
  readonly title: string;
  readonly category: AilmentCategory;
  /** Elements whose attacks are Technical Hits on a sufferer ("Physical" is read by option technicalPhysical). */
  readonly technical: readonly (RegularElement | 'physical' | 'all')[];
  readonly end: AilmentEnd;
  /** The sufferer may take no Action. */
  readonly noActions: boolean;
  /** The sufferer may not oppose attacks. */
  readonly cannotOppose: boolean;
  /** Disadvantages on all of the sufferer's tests. */
  readonly allTestsDisadvantage: number;
  /** Disadvantages on the sufferer's tests of one Score. */
  readonly scoreDisadvantage?: { readonly score: Score; readonly count: number };
  /** Extra Advantage enemies gain, beyond the one per ailment. */
  readonly extraAdvantageAgainst: number;
  /** Immunity to this element confers immunity to the ailment. */
  readonly immunityElement?: RegularElement;
  /** Damage or an element hit that ends it. */
  readonly endsOn?: 'wound' | 'ice-hit';
}

const two: AilmentEnd = { kind: 'turns', turns: 2 };
function def(d: Partial<AilmentDef> & Pick<AilmentDef, 'name' | 'title' | 'category' | 'technical' | 'end'>): AilmentDef {
  return { noActions: false, cannotOppose: false, allTestsDisadvantage: 0, extraAdvantageAgainst: 0, ...d };
}

export const AILMENTS: Readonly<Record<AilmentName, AilmentDef>> = {
  staggered: def({ name: 'staggered', title: 'Staggered', category: 'staggered', technical: [], end: { kind: 'next-turn-start' }, cannotOppose: true }),
  burning: def({ name: 'burning', title: 'Burning', category: 'physical', technical: ['nuke', 'wind'], end: { kind: 'until', what: 'put out, or hit with an Ice attack' }, immunityElement: 'fire', endsOn: 'ice-hit', scoreDisadvantage: { score: 'willpower', count: 1 } }),
  dizzy: def({ name: 'dizzy', title: 'Dizzy', category: 'physical', technical: ['nuke'], end: two, allTestsDisadvantage: 1 }),
  frozen: def({ name: 'frozen', title: 'Frozen', category: 'physical', technical: ['nuke', 'physical'], end: { kind: 'until', what: 'a Strength or Toughness test passed at the end of a turn, or damage taken' }, noActions: true, immunityElement: 'ice', endsOn: 'wound' }),
  shocked: def({ name: 'shocked', title: 'Shocked', category: 'physical', technical: ['nuke', 'physical'], end: two, noActions: true, immunityElement: 'elec' }),
  drowsed: def({ name: 'drowsed', title: 'Drowsed', category: 'physical', technical: ['all'], end: { kind: 'until', what: 'damage taken' }, noActions: true, endsOn: 'wound' }),
  stunned: def({ name: 'stunned', title: 'Stunned', category: 'physical', technical: ['nuke'], end: two, noActions: true, extraAdvantageAgainst: 1 }),
  amnesiac: def({ name: 'amnesiac', title: 'Amnesiac', category: 'mental', technical: ['psy'], end: two }),
  brainwashed: def({ name: 'brainwashed', title: 'Brainwashed', category: 'mental', technical: ['psy'], end: two }),
  confused: def({ name: 'confused', title: 'Confused', category: 'mental', technical: ['psy'], end: two }),
  despaired: def({ name: 'despaired', title: 'Despaired', category: 'mental', technical: ['psy'], end: { kind: 'until', what: 'cured, a Willpower -10 test passed, or passing out' }, noActions: true }),
  enraged: def({ name: 'enraged', title: 'Enraged', category: 'mental', technical: ['psy'], end: two, cannotOppose: true }),
  panicked: def({ name: 'panicked', title: 'Panicked', category: 'mental', technical: ['psy'], end: { kind: 'until', what: 'a test against the source won, or a Move and Action spent' }, allTestsDisadvantage: 1 }),
  condemned: def({ name: 'condemned', title: 'Condemned', category: 'spiritual', technical: ['bless'], end: two, immunityElement: 'bless' }),
  damned: def({ name: 'damned', title: 'Damned', category: 'spiritual', technical: ['curse'], end: two, immunityElement: 'curse' }),
};

/** An ailment a character suffers. */
export interface ActiveAilment {
  readonly name: AilmentName;
  /** Turns it lasts, or null when an event ends it. */
  readonly turns: number | null;
  /** Own turns of the sufferer that have ended and counted. */
  readonly elapsed: number;
  /** The sufferer's count of turns started when it took hold: only turns starting later count. */
  readonly since: number;
  /** Who inflicted it (the controller, for Brainwashed; the source, for Panicked). */
  readonly source?: string;
}

/** The default duration in turns under the options, or null for ailments an event ends. */
export function defaultTurns(name: AilmentName, options: Pick<D100Options, 'stunnedDuration'>): number | null {
  if (name === 'stunned') return options.stunnedDuration === 'two-turns' ? 2 : options.stunnedDuration === 'one-turn' ? 1 : null;
  const end = AILMENTS[name].end;
  return end.kind === 'turns' ? end.turns : null;
}

/** Whether an attack of `element` is a Technical Hit on this ailment (d100-combat-rules.txt, "Technical Hits"). */
export function isTechnicalAgainst(name: AilmentName, element: Element, options: Pick<D100Options, 'technicalPhysical'>): boolean {
  for (const t of AILMENTS[name].technical) {
    if (t === 'all') return true;
    if (t === 'physical') {
      if (options.technicalPhysical === 'melee-and-missile' && (element === 'melee' || element === 'missile')) return true;
    } else if (t === element) return true;
  }
  return false;
}

/**
 * The elements whose immunity confers immunity to an ailment. The Frozen row gives Ice immunity as
 * immunity to Shocked (option `frozenImmunity`, C5): read as a slip for Frozen, or as written.
 */
export function immunityElements(name: AilmentName, options: Partial<Pick<D100Options, 'frozenImmunity'>>): RegularElement[] {
  if (options.frozenImmunity === 'literal') {
    if (name === 'frozen') return [];
    if (name === 'shocked') return ['elec', 'ice'];
  }
  const e = AILMENTS[name].immunityElement;
  return e ? [e] : [];
}

export type InflictOutcome =
  | { readonly ok: true; readonly ailments: readonly ActiveAilment[]; readonly replaced: AilmentName | null }
  | { readonly ok: false; readonly reason: 'slot-taken' | 'immune' | 'already'; readonly message: string };

/**
 * Gives an ailment, keeping one per category (option `ailmentSameCategory` says whether a new one
 * is refused or replaces the old). `immuneTo` lists the elements the sufferer is immune to.
 */
export function inflictAilment(
  current: readonly ActiveAilment[],
  name: AilmentName,
  at: { readonly turnsStarted: number; readonly turns?: number | null; readonly source?: string },
  immuneTo: (element: RegularElement) => boolean,
  options: Pick<D100Options, 'ailmentSameCategory' | 'stunnedDuration'> & Partial<Pick<D100Options, 'frozenImmunity'>>,
): InflictOutcome {
  const def = AILMENTS[name];
  const immunity = immunityElements(name, options).find(immuneTo);
  if (immunity) {
    return { ok: false, reason: 'immune', message: `immune to ${def.title}: immunity to ${immunity} confers immunity to it` };
  }
  const occupant = current.find((a) => AILMENTS[a.name].category === def.category);
  if (occupant && occupant.name === name && name === 'staggered') {
    return { ok: false, reason: 'already', message: 'already Staggered: a Staggered enemy cannot be Staggered again' };
  }
  if (occupant && options.ailmentSameCategory === 'ignore-new') {
    return { ok: false, reason: 'slot-taken', message: `already suffers ${AILMENTS[occupant.name].title}, a ${def.category} ailment: one ailment per category` };
  }
  const turns = at.turns !== undefined ? at.turns : defaultTurns(name, options);
  const added: ActiveAilment = { name, turns, elapsed: 0, since: at.turnsStarted, ...(at.source !== undefined ? { source: at.source } : {}) };
  return { ok: true, ailments: [...current.filter((a) => a !== occupant), added], replaced: occupant ? occupant.name : null };
}

/** At the start of the sufferer's turn number `turn` (counted from 1): Staggered ends. */
export function ailmentsAtTurnStart(current: readonly ActiveAilment[], turn: number): { active: ActiveAilment[]; expired: AilmentName[] } {
  const active: ActiveAilment[] = [];
  const expired: AilmentName[] = [];
  for (const a of current) {
    if (AILMENTS[a.name].end.kind === 'next-turn-start' && turn > a.since) expired.push(a.name);
    else active.push(a);
  }
  return { active, expired };
}

/** At the end of the sufferer's turn number `turn`: each timed ailment that took hold before this turn counts it. */
export function ailmentsAtTurnEnd(current: readonly ActiveAilment[], turn: number): { active: ActiveAilment[]; expired: AilmentName[] } {
  const active: ActiveAilment[] = [];
  const expired: AilmentName[] = [];
  for (const a of current) {
    if (a.turns === null || turn <= a.since) {
      active.push(a);
      continue;
    }
    const next = { ...a, elapsed: a.elapsed + 1 };
    if (next.elapsed >= a.turns) expired.push(a.name);
    else active.push(next);
  }
  return { active, expired };
}

/** Advantages enemies gain against a sufferer: one per ailment, and Stunned's extra one. */
export function advantageFromAilments(current: readonly ActiveAilment[]): number {
  return current.reduce((n, a) => n + 1 + AILMENTS[a.name].extraAdvantageAgainst, 0);
}

/** What a Confused character does when it fails its start-of-turn Intelligence test. */
export type ConfusedAct = 'nothing' | 'drop' | 'attack-nearest' | 'attack-self';

/**
 * Confused (the ailments passage): on a failed Intelligence test, by Degrees of Failure: 0-1 does
 * nothing but may still oppose attacks; 2-3 drops what one hand holds (left when odd, right when
 * even); 4+ attacks the nearest character; 5+ attacks itself. The two last bands overlap (option
 * `confusedBands`, C8). A passed test leaves it free to act.
 */
export function confusedActs(test: Pick<TestResult, 'success' | 'degreesOfFailure'>, options: Pick<D100Options, 'confusedBands'>): { acts: ConfusedAct[]; hand?: 'left' | 'right' } {
  if (test.success) return { acts: [] };
  const dof = test.degreesOfFailure;
  if (dof <= 1) return { acts: ['nothing'] };
  if (dof <= 3) return { acts: ['drop'], hand: dof % 2 === 1 ? 'left' : 'right' };
  if (dof === 4) return { acts: ['attack-nearest'] };
  return { acts: options.confusedBands === 'both' ? ['attack-nearest', 'attack-self'] : ['attack-self'] };
}

/**
 * Panicked (the ailments passage): a Panicked character that fails a test against the source of its
 * panic spends its next Move and Action fleeing when its DoF and the source's DoS are 3 or more
 * apart (option `panickedMargin`, C10: their sum, or the difference of the two numbers).
 */
export function panicFlees(degreesOfFailure: number, sourceDegreesOfSuccess: number, options: Pick<D100Options, 'panickedMargin'>): boolean {
  return options.panickedMargin === 'sum' ? degreesOfFailure + sourceDegreesOfSuccess >= 3 : Math.abs(degreesOfFailure - sourceDegreesOfSuccess) >= 3;
}
