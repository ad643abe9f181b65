import type { Actor } from '@personae/core';
import { controllerOf, type Controlled } from './authority';
import { REGULAR_ELEMENTS, type AffinityTable, type Element, type RegularElement } from './elements';
import type { Fighter, PersonaState } from './fighter';
import type { D100Options } from './options';
import { ANALYSE_CITATION } from './rules';
import type { D100Sheet } from './sheet';

/**
 * Analyse Target (d100-combat-rules.txt, "Analysing Targets, Disrupting Targets and Tricks"): an
 * Arcana Level 4 character reveals one enemy's elemental affinities, Arcana and Personality; at Arcana
 * Level 7 an Advanced Analyse Target reveals its Wounds, Scores and Traits as well. What an enemy's
 * affinities are is therefore hidden from the party until then; option affinityReveal decides whether
 * being struck with an element also reveals that one element.
 */
export { ANALYSE_CITATION };

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

/** The state a viewer's knowledge is read from. */
type Known = Controlled & { readonly sheets: Readonly<Record<string, D100Sheet>>; readonly options: Pick<D100Options, 'affinityReveal' | 'detailsReveal'>; readonly knowledge?: Readonly<Record<string, Knowledge>> };

/** Whether the viewer knows all about a character by its standing alone: the GM, the party's own, a player's own characters. */
function ownSide(state: Known, id: string, viewer: Actor): boolean {
  if (viewer.role === 'gm' || state.sheets[id]?.side === 'pc') return true;
  return viewer.role === 'player' && controllerOf(state, id) === viewer.participantId;
}

function knowledgeOf(state: Known, id: string): Knowledge {
  return Object.hasOwn(state.knowledge ?? {}, id) ? state.knowledge![id]! : NOTHING_KNOWN;
}

/**
 * Which of a character's affinities a viewer is shown: all of them for the GM, for the viewer's own
 * characters and for the party (side "pc"), and under affinityReveal=open; otherwise those the party
 * has learnt.
 */
export function knownAffinities(state: Known, id: string, viewer: Actor): 'all' | readonly RegularElement[] {
  if (state.options.affinityReveal === 'open' || ownSide(state, id, viewer)) return 'all';
  const k = knowledgeOf(state, id);
  return k.analysed ? 'all' : k.struck;
}

/**
 * Whether a viewer is shown a character's Wounds, Scores and Traits, which Advanced Analyse Target
 * reveals (option detailsReveal): as for the affinities, but only an Advanced Analyse reveals them.
 */
export function knownDetails(state: Known, id: string, viewer: Actor): boolean {
  return state.options.detailsReveal === 'open' || ownSide(state, id, viewer) || knowledgeOf(state, id).analysed === 'advanced';
}

/** What a viewer is shown of one character: the affinities it knows, and whether its Wounds, Scores and Traits. */
export interface Shown {
  readonly affinities: 'all' | readonly RegularElement[];
  readonly details: boolean;
}

export function shownOf(state: Known, id: string, viewer: Actor): Shown {
  return { affinities: knownAffinities(state, id, viewer), details: knownDetails(state, id, viewer) };
}

/** A sheet as a viewer is shown it: without its Scores, wounds and Unnatural Toughness until those are known. */
export type ShownSheet = Omit<D100Sheet, 'scores' | 'wounds' | 'unnaturalToughness' | 'persona'> & {
  readonly scores?: D100Sheet['scores'];
  readonly wounds?: D100Sheet['wounds'];
  readonly unnaturalToughness?: number;
  readonly persona?: Omit<NonNullable<D100Sheet['persona']>, 'wounds' | 'woundsLeft'> & { readonly wounds?: number; readonly woundsLeft?: number };
};

/** A fighter as a viewer is shown it: without its Scores, wound tracks, Persona wounds and Unnatural Toughness until those are known. */
export type ShownFighter = Omit<Fighter, 'scores' | 'tracks' | 'unnaturalToughness' | 'persona'> & {
  readonly scores?: Fighter['scores'];
  readonly tracks?: Fighter['tracks'];
  readonly unnaturalToughness?: number;
  readonly persona: (Omit<PersonaState, 'wounds' | 'max'> & { readonly wounds?: number; readonly max?: number }) | null;
};

function keep(table: AffinityTable, known: readonly RegularElement[]): AffinityTable {
  return Object.fromEntries(REGULAR_ELEMENTS.filter((e) => known.includes(e) && table[e] !== undefined).map((e) => [e, table[e]])) as AffinityTable;
}

/** A sheet with only the affinities the viewer knows; Arcana and Personality only once analysed; Scores, wounds and traits only once known. */
export function redactSheet(sheet: D100Sheet, shown: Shown): ShownSheet {
  let out: ShownSheet = sheet;
  if (shown.affinities !== 'all') {
    const { arcana: _arcana, personality: _personality, ...rest } = sheet;
    const known = shown.affinities;
    out = { ...rest, affinities: keep(sheet.affinities as AffinityTable, known), ...(sheet.persona ? { persona: { ...sheet.persona, affinities: keep(sheet.persona.affinities as AffinityTable, known) } } : {}) };
  }
  if (shown.details) return out;
  const { scores: _scores, wounds: _wounds, unnaturalToughness: _unnatural, persona, ...rest } = out;
  if (!persona) return rest;
  const { wounds: _pw, woundsLeft: _pl, ...personaRest } = persona;
  return { ...rest, persona: personaRest };
}

/** A fighter with only the affinities the viewer knows, and its Scores, wounds and traits only once known. */
export function redactFighter(f: Fighter, shown: Shown): ShownFighter {
  const known = shown.affinities;
  const g: Fighter = known === 'all' ? f : { ...f, affinities: keep(f.affinities, known), persona: f.persona ? { ...f.persona, affinities: keep(f.persona.affinities, known) } : null };
  if (shown.details) return g;
  const { scores: _scores, tracks: _tracks, unnaturalToughness: _unnatural, persona, ...rest } = g;
  return { ...rest, persona: persona ? { name: persona.name, affinities: persona.affinities } : null };
}

/** The sheet and fighter a viewer is shown, as whole ones when it knows their Scores, wounds and traits; else null. */
export function knownInFull(sheet: ShownSheet | undefined, fighter: ShownFighter): { sheet: D100Sheet; fighter: Fighter } | null {
  if (!sheet?.scores || !fighter.scores || !fighter.tracks) return null;
  return { sheet: sheet as D100Sheet, fighter: fighter as Fighter };
}

/** A viewer who plays none of the characters: what everyone but the GM is shown at least. */
const ANYONE: Actor = { role: 'observer', participantId: '' };

/** Per state: each player's characters that they are shown more of than anyone else is, sorted. */
const shownMore = new WeakMap<Known, ReadonlyMap<string, readonly string[]>>();

function playersShownMore(state: Known): ReadonlyMap<string, readonly string[]> {
  let byPlayer = shownMore.get(state);
  if (byPlayer) return byPlayer;
  const out = new Map<string, string[]>();
  for (const [id, who] of Object.entries(state.controllers ?? {})) {
    if (typeof who !== 'string') continue;
    const theirs = shownOf(state, id, { role: 'player', participantId: who });
    const anyone = shownOf(state, id, ANYONE);
    if (theirs.details === anyone.details && (theirs.affinities === 'all') === (anyone.affinities === 'all')) continue;
    const list = out.get(who);
    if (list) list.push(id);
    else out.set(who, [id]);
  }
  for (const list of out.values()) list.sort();
  shownMore.set(state, (byPlayer = out));
  return byPlayer;
}

/**
 * Which viewers are shown the same view of a d100 table (the server builds it once for each). Who a
 * viewer is counts only through the role (the GM sees every character whole) and, for a player, the
 * characters they control whose affinities, Wounds, Scores and Traits they are shown and others are
 * not (knownAffinities, knownDetails); a player with none is shown what an observer is.
 */
export function d100Audience(state: Known, viewer: Actor): string {
  if (viewer.role === 'gm') return 'gm';
  const own = viewer.role === 'player' ? playersShownMore(state).get(viewer.participantId) : undefined;
  return own ? `table ${JSON.stringify(own)}` : 'table';
}
