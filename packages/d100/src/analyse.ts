import type { Actor } from '@personae/core';
import { controllerOf, type Controlled } from './authority';
import { REGULAR_ELEMENTS, type AffinityTable, type Element, type RegularElement } from './elements';
import type { Fighter } from './fighter';
import type { D100Options } from './options';
import { seed } from './rules';
import type { D100Sheet } from './sheet';

/**
 * Analyse Target (d100-combat-rules.txt, "Analysing Targets, Disrupting Targets and Tricks"): an
 * Arcana Level 4 character reveals one enemy's elemental affinities, Arcana and Personality; at Arcana
 * Level 7 an Advanced Analyse Target reveals its Wounds, Scores and Traits as well. What an enemy's
 * affinities are is therefore hidden from the party until then; option affinityReveal decides whether
 * being struck with an element also reveals that one element.
 */
export const ANALYSE_CITATION = seed('Analysing Targets, Disrupting Targets and Tricks');

/** The Arcana Level each kind of Analyse Target needs. */
export const ANALYSE_LEVEL = { basic: 4, advanced: 7 } as const;

/** What the party has learnt of one character's affinities. */
export interface Knowledge {
  /** Analysed: its whole affinity table, Arcana and Personality are known ("advanced": also Wounds, Scores, Traits). */
  readonly analysed: 'basic' | 'advanced' | null;
  /** Elements it has been struck with, whose affinities are known (option affinityReveal). */
  readonly struck: readonly RegularElement[];
}

export const NOTHING_KNOWN: Knowledge = { analysed: null, struck: [] };

/** The knowledge after an Analyse Target; an Advanced one is never lowered by a later basic one. */
export function analysed(k: Knowledge | undefined, advanced: boolean): Knowledge {
  const was = k ?? NOTHING_KNOWN;
  return { ...was, analysed: advanced || was.analysed === 'advanced' ? 'advanced' : 'basic' };
}

/** The knowledge after a hit with `element` lands (only under affinityReveal=analyse-or-struck). */
export function struck(k: Knowledge | undefined, element: Element, options: Pick<D100Options, 'affinityReveal'>): Knowledge | undefined {
  if (options.affinityReveal !== 'analyse-or-struck' || element === 'almighty') return k;
  const was = k ?? NOTHING_KNOWN;
  return was.struck.includes(element) ? was : { ...was, struck: [...was.struck, element] };
}

/**
 * Which of a character's affinities a viewer is shown: all of them for the GM, for the viewer's own
 * characters and for the party (side "pc"), and under affinityReveal=open; otherwise those the party
 * has learnt.
 */
export function knownAffinities(state: Controlled & { readonly sheets: Readonly<Record<string, D100Sheet>>; readonly options: Pick<D100Options, 'affinityReveal'>; readonly knowledge?: Readonly<Record<string, Knowledge>> }, id: string, viewer: Actor): 'all' | readonly RegularElement[] {
  if (viewer.role === 'gm' || state.options.affinityReveal === 'open') return 'all';
  if (state.sheets[id]?.side === 'pc') return 'all';
  if (viewer.role === 'player' && controllerOf(state, id) === viewer.participantId) return 'all';
  const k = Object.hasOwn(state.knowledge ?? {}, id) ? state.knowledge![id]! : NOTHING_KNOWN;
  return k.analysed ? 'all' : k.struck;
}

function keep(table: AffinityTable, known: readonly RegularElement[]): AffinityTable {
  return Object.fromEntries(REGULAR_ELEMENTS.filter((e) => known.includes(e) && table[e] !== undefined).map((e) => [e, table[e]])) as AffinityTable;
}

/** A sheet with only the affinities the viewer knows; Arcana and Personality only once analysed. */
export function redactSheet(sheet: D100Sheet, known: 'all' | readonly RegularElement[]): D100Sheet {
  if (known === 'all') return sheet;
  const { arcana: _arcana, personality: _personality, ...rest } = sheet;
  return { ...rest, affinities: keep(sheet.affinities as AffinityTable, known), ...(sheet.persona ? { persona: { ...sheet.persona, affinities: keep(sheet.persona.affinities as AffinityTable, known) } } : {}) };
}

/** A fighter with only the affinities the viewer knows. */
export function redactFighter(f: Fighter, known: 'all' | readonly RegularElement[]): Fighter {
  if (known === 'all') return f;
  return { ...f, affinities: keep(f.affinities, known), persona: f.persona ? { ...f.persona, affinities: keep(f.persona.affinities, known) } : null };
}
