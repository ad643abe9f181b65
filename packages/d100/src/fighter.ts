import { AILMENTS, type ActiveAilment } from './ailments';
import { affinityOf, isPhysical, type Affinity, type AffinityTable, type Element } from './elements';
import type { Injury } from './injuries';
import { LOCATIONS, type Location } from './location';
import type { D100Options } from './options';
import { woundTracksFor, type WoundTracks } from './wounds';
import type { Score } from './scores';

/** The altitude bands of flying characters, lowest first (untitled flight passage after "Difficult Terrain"). */
export const ALTITUDES = ['ground', 'low', 'high'] as const;
export type Altitude = (typeof ALTITUDES)[number];

export { SCORES, type Score } from './scores';

export function bonus(score: number): number {
  return Math.floor(Math.max(0, score) / 10);
}

export interface PersonaState {
  readonly name: string;
  readonly max: number;
  readonly wounds: number;
  readonly affinities: AffinityTable;
}

/** Conditions the seed names outside the ailment table. */
export interface Conditions {
  /** Defending until the start of its next turn (d100-combat-rules.txt, "Defending and Protecting"). */
  readonly defending: boolean;
  /** Sleeping, unconscious or incapacitated (Helpless passage after "Score Decay"). */
  readonly helpless: boolean;
  readonly bloodLoss: boolean;
  readonly prone: boolean;
  /** Who grapples it (d100-combat-rules.txt, "Grappled and Immobilised"). */
  readonly grappledBy: string | null;
  /** Toughness lost to decay ("Score Decay"). */
  readonly toughnessDecay: number;
  /** The Difficult Terrain Number of the ground it stands in, 0 to 3 ("Difficult Terrain"). */
  readonly difficultTerrain: number;
  /** The kind of Difficult Terrain it stands in (absent: Uneven/Slippery when it has a number, else open ground). */
  readonly terrain?: Terrain;
  /** The damage Damaging terrain deals on a failed full-speed test, before the degrees of failure. */
  readonly terrainDamage?: number;
  /** Where it stands, in metres on the map's square grid, and its elevation (the GM places it). */
  readonly position: Position | null;
  /** The ally it protects ("Defending and Protecting", Protect). */
  readonly protecting: string | null;
  /** A Panicked character's next Move and Action are spent fleeing (the Panicked ailment): set by the failed test, until its next Turn starts. */
  readonly mustFlee: boolean;
  /** The Turn it spends fleeing from the source of its panic: the source's id, until the Turn ends. */
  readonly fleeing?: string | null;
  /** It has made its Move this turn; it Ran, until the start of its next turn ("Movement and Combat"). */
  readonly moved?: boolean;
  readonly running?: boolean;
  /** The enemies it has disengaged from this turn (a won test or the Action). */
  readonly disengagedFrom?: readonly string[];
  /** Surprised: it loses its first turn and opposes nothing in the surprise round ("Combat Structure", Step Two). */
  readonly surprised?: boolean;
  /** Its altitude band when flying (untitled flight passage after "Difficult Terrain"); absent: Ground. */
  readonly altitude?: Altitude;
  /** Falling from the air: the band the fall began in. */
  readonly falling?: Exclude<Altitude, 'ground'>;
  /** In stealth ("Special Movement Actions", Going Stealthy) until a failed stealth test, an attack or the GM ends it. */
  readonly stealthy?: boolean;
  /** The enemy it has Distracted: until the start of its next turn it may force one reroll of that enemy's tests. */
  readonly distracting?: string | null;
  /** Who has made it take a Scary Face, until the start of each one's next turn. */
  readonly scaredBy?: readonly string[];
  /** Rounds left of the unconsciousness a failed Exhausted test brings ("Fatigue and Exhaustion"); Helpless meanwhile. */
  readonly unconscious?: number;
  /** It uses its Action at the start of its next Turn to stem its own Blood Loss, with three Advantages on the test ("Blood Loss"). */
  readonly stemming?: boolean;
  /** The test its player declared for its Blood Loss ("Blood Loss": Toughness or Endurance (Injury)); absent: the better of the two. */
  readonly bleedingTest?: 'toughness' | 'endurance';
  /** How many more Heavy wounds it incurs (from hits, falls, Burning or Blood Loss) it blocks with a Fate Point each, as its player declared ("Fate Points", Block Heavy Wound); absent: none. */
  readonly blockHeavy?: number;
}

/** A place on the map: one square per metre, elevation in metres ("Movement and Combat"). */
export interface Position {
  readonly x: number;
  readonly y: number;
  readonly elevation: number;
}

/** A character in a fight: what the rules read and change. */
export interface Fighter {
  readonly id: string;
  readonly name: string;
  /** Characters on the same side are allies. */
  readonly side: string;
  readonly scores: Readonly<Record<Score, number>>;
  readonly realisation: number;
  readonly tracks: WoundTracks;
  readonly stress: number;
  readonly armour: Readonly<Record<Location, number>>;
  /** The character's own affinities (a Shadow's, or an Evoker's without a living Persona). */
  readonly affinities: AffinityTable;
  /** The equipped Persona, or null. */
  readonly persona: PersonaState | null;
  readonly ailments: readonly ActiveAilment[];
  readonly injuries: readonly Injury[];
  readonly fate: { readonly current: number; readonly max: number };
  readonly conditions: Conditions;
  /** How many of its turns have started in this encounter. */
  readonly turnsStarted: number;
  /** Locations whose hit is a Headshot/Weakspot ("Inflicting Multiple Wounds"). */
  readonly vital: readonly Location[];
  /** Out of the fight (the Deadly wound lost). */
  readonly out: boolean;
  readonly dead: boolean;
  /** Advantages bought with Fate Points for its next test ("Fate Points"). */
  readonly pendingAdvantages: number;
  /** Locations whose Injury a Fate Point makes it ignore until the end of the Round. */
  readonly injuriesIgnored: readonly Location[];
  /** Chance Attacks it has made: since the start of its last Turn, and at whom this Round ("Chance Attacks"). */
  readonly chance: { readonly sinceTurn: boolean; readonly targetsThisRound: readonly string[] };
  /** Enemies that may make a Chance Attack on it, and why (a Flee gives theirs an Advantage). */
  readonly openings: readonly { readonly by: string; readonly trigger: 'flee' | 'failed-grapple' }[];
  /** Attacks it has opposed this Round (option evasionsPerRound). */
  readonly evasionsThisRound: number;
  /** Spirit and Exertion, spent on Powers and restored by Fate Points ("Fate Points"). */
  readonly resources: Readonly<Record<Resource, { readonly current: number; readonly max: number }>>;
  /** Weapons put away, drawn by Equip Item ("Equipment Actions"); absent: as the sheet starts. */
  readonly stowed?: readonly string[];
  /** Consumables left by name, once one has been used ("Equipment Actions"); absent: the sheet's counts. */
  readonly consumables?: Readonly<Record<string, number>>;
  /** Shots left in each weapon whose ammunition is counted, once one has fired ("Equipment Actions", Reload; "Fumble"); absent: a full clip. */
  readonly loaded?: Readonly<Record<string, number>>;
  /** Spare loads left for each such weapon, once one has been used; absent: the sheet's. */
  readonly spareLoads?: Readonly<Record<string, number>>;
  /** A Reload under way: the weapon and the Actions it still takes. */
  readonly reloading?: { readonly weapon: string; readonly left: number };
  /** The rating of its Unnatural Toughness trait, 0 without one (the Enraged row of the ailments passage). */
  readonly unnaturalToughness?: number;
  /** What its own Move and Action went on this Turn ("Structured Time"; see economy.ts); absent: nothing yet. */
  readonly turn?: { readonly action: string | null; readonly move: string | null; readonly hands?: readonly ('right' | 'left')[] };
}

/** The two pools a Fate Point restores ("Fate Points", Restore Exertion or Spirit). */
export const RESOURCES = ['spirit', 'exertion'] as const;
export type Resource = (typeof RESOURCES)[number];

/**
 * The maxima of Spirit and Exertion. The seed names both without defining them (inventory U48); the
 * game's Persona pages make Spirit the Magic Bonus times the Evoker Rank and Exertion the Evoker Rank
 * times the best of the Melee, Ballistic, Strength and Toughness Bonuses.
 */
export function resourceMaxima(scores: Readonly<Record<Score, number>>, evokerRank: number): Record<Resource, number> {
  return {
    spirit: bonus(scores.magic) * evokerRank,
    exertion: evokerRank * Math.max(bonus(scores.melee), bonus(scores.ballistic), bonus(scores.strength), bonus(scores.toughness)),
  };
}

export const NO_CONDITIONS: Conditions = { defending: false, helpless: false, bloodLoss: false, prone: false, grappledBy: null, toughnessDecay: 0, difficultTerrain: 0, position: null, protecting: null, mustFlee: false };

export function noArmour(): Record<Location, number> {
  return Object.fromEntries(LOCATIONS.map((l) => [l, 0])) as Record<Location, number>;
}

export interface FighterInit {
  readonly id: string;
  readonly name?: string;
  readonly side?: string;
  readonly scores: Readonly<Record<Score, number>>;
  readonly realisation?: number;
  readonly armour?: Partial<Record<Location, number>>;
  readonly affinities?: AffinityTable;
  readonly persona?: { readonly name: string; readonly wounds: number; readonly affinities?: AffinityTable } | null;
  readonly vital?: readonly Location[];
  readonly evokerRank?: number;
  readonly unnaturalToughness?: number;
}

/** A fresh fighter: full tracks from the Toughness Bonus, Fate Points equal to the Realisation Bonus. */
export function makeFighter(init: FighterInit): Fighter {
  const rb = bonus(init.realisation ?? 0);
  return {
    id: init.id,
    name: init.name ?? init.id,
    side: init.side ?? 'pc',
    scores: init.scores,
    realisation: init.realisation ?? 0,
    tracks: woundTracksFor(bonus(init.scores.toughness)),
    stress: 0,
    armour: { ...noArmour(), ...init.armour },
    affinities: init.affinities ?? {},
    persona: init.persona ? { name: init.persona.name, max: init.persona.wounds, wounds: init.persona.wounds, affinities: init.persona.affinities ?? {} } : null,
    ailments: [],
    injuries: [],
    fate: { current: rb, max: rb },
    conditions: NO_CONDITIONS,
    turnsStarted: 0,
    vital: init.vital ?? ['head'],
    ...(init.unnaturalToughness ? { unnaturalToughness: init.unnaturalToughness } : {}),
    out: false,
    dead: false,
    pendingAdvantages: 0,
    injuriesIgnored: [],
    chance: { sinceTurn: false, targetsThisRound: [] },
    openings: [],
    evasionsThisRound: 0,
    resources: (() => {
      const m = resourceMaxima(init.scores, init.evokerRank ?? 0);
      return { spirit: { current: m.spirit, max: m.spirit }, exertion: { current: m.exertion, max: m.exertion } };
    })(),
  };
}

export function toughness(f: Fighter): number {
  return Math.max(0, f.scores.toughness - f.conditions.toughnessDecay);
}

export function hasAilment(f: Fighter, name: ActiveAilment['name']): boolean {
  return f.ailments.some((a) => a.name === name);
}

/** A living equipped Persona: it takes the wounds first and lends its affinities. */
export function livingPersona(f: Fighter): PersonaState | null {
  return f.persona && f.persona.wounds > 0 ? f.persona : null;
}

/**
 * The affinity that meets an element: the living Persona's, else the character's own. A Frozen
 * character loses its resistances to Physical elements (they count as Normal).
 */
export function effectiveAffinity(f: Fighter, element: Element): Affinity {
  const table = livingPersona(f)?.affinities ?? f.affinities;
  const a = affinityOf(table, element);
  if (hasAilment(f, 'frozen') && isPhysical(element) && a !== 'weak') return 'normal';
  return a;
}

/** Fatigued when Stress exceeds Toughness; Exhausted 20 above it (d100-combat-rules.txt, "Fatigue and Exhaustion"). */
export function fatigue(f: Fighter): 'none' | 'fatigued' | 'exhausted' {
  const t = toughness(f);
  if (f.stress >= t + 20) return 'exhausted';
  if (f.stress > t) return 'fatigued';
  return 'none';
}

/** Disadvantages on all of a fighter's tests from Fatigue and from its ailments. */
export function disadvantagesOnAllTests(f: Fighter): { label: string; count: number }[] {
  const out: { label: string; count: number }[] = [];
  const level = fatigue(f);
  if (level !== 'none') out.push({ label: 'Fatigued', count: 1 });
  if (level === 'exhausted') out.push({ label: 'Exhausted', count: 1 });
  for (const a of f.ailments) if (AILMENTS[a.name].allTestsDisadvantage) out.push({ label: AILMENTS[a.name].title, count: AILMENTS[a.name].allTestsDisadvantage });
  return out;
}

/** Whether the fighter may oppose an attack: not Staggered, Helpless or Enraged (and not out). */
export function canOppose(f: Fighter): boolean {
  if (f.out || f.conditions.helpless || f.conditions.surprised) return false;
  return !f.ailments.some((a) => AILMENTS[a.name].cannotOppose);
}

/**
 * A Bonus raised by an Unnatural trait of the given rating, read by option `unnatural` (U43): the
 * rating added to the Bonus, or the Bonus multiplied by it.
 */
export function unnaturalBonus(plain: number, rating: number, options: Pick<D100Options, 'unnatural'>): number {
  if (!rating) return plain;
  return options.unnatural === 'multiply-bonus' ? plain * rating : plain + rating;
}

/** The Strength Bonus that melee damage adds; an Enraged character gains Unnatural Strength (2). */
export function strengthBonus(f: Fighter, options: Pick<D100Options, 'unnatural'>): number {
  return unnaturalBonus(bonus(f.scores.strength), hasAilment(f, 'enraged') ? 2 : 0, options);
}

/**
 * The Toughness Bonus an attack's damage must beat: the Bonus of the (decayed) Toughness, raised by
 * the Unnatural Toughness trait, which attacks on an Enraged character ignore (the Enraged row of the
 * ailments passage). The wound tracks keep the plain Bonus.
 */
export function defenseToughnessBonus(f: Fighter, options: Pick<D100Options, 'unnatural'>): number {
  const tb = bonus(toughness(f));
  return hasAilment(f, 'enraged') ? tb : unnaturalBonus(tb, f.unnaturalToughness ?? 0, options);
}

/**
 * Disadvantages an ailment gives tests of one Score: Burning, one on Willpower tests (the Burning row
 * of the ailments passage).
 */
export function ailmentScoreDisadvantages(f: Fighter, score: Score | null | undefined): { label: string; count: number }[] {
  const out: { label: string; count: number }[] = [];
  for (const a of f.ailments) {
    const d = AILMENTS[a.name].scoreDisadvantage;
    if (d && d.score === score) out.push({ label: AILMENTS[a.name].title, count: d.count });
  }
  return out;
}

/**
 * Disadvantages the Difficult Terrain Number gives a test (d100-combat-rules.txt, "Difficult
 * Terrain"; option `difficultTerrainScope`, C2): on Agility tests only, or on every test.
 */
export function terrainDisadvantages(f: Fighter, score: Score | null, options: Pick<D100Options, 'difficultTerrainScope'>): { label: string; count: number }[] {
  const dtn = f.conditions.difficultTerrain ?? 0;
  if (!dtn) return [];
  // Only Uneven/Slippery terrain burdens every Agility test taken in it
  if (options.difficultTerrainScope === 'movement-and-agility' && (score !== 'agility' || terrainOf(f) !== 'uneven')) return [];
  return [{ label: 'Difficult Terrain', count: dtn }];
}

/** The kinds of Difficult Terrain ("Difficult Terrain"): Uneven/Slippery and Damaging. */
export const TERRAINS = ['uneven', 'damaging'] as const;
export type Terrain = (typeof TERRAINS)[number];

/** The Difficult Terrain a character stands in, or null on open ground. */
export function terrainOf(f: Fighter): Terrain | null {
  return f.conditions.terrain ?? (f.conditions.difficultTerrain > 0 ? 'uneven' : null);
}

/** The Armour at a location (option `armour`, U17: per location, or the body's everywhere). */
export function armourAt(f: Fighter, location: Location, options: Pick<D100Options, 'armour'>): number {
  return (options.armour === 'single' ? f.armour.body : f.armour[location]) ?? 0;
}

/** The altitude band a character is at (untitled flight passage after "Difficult Terrain"). */
export function altitudeOf(f: Pick<Fighter, 'conditions'>): Altitude {
  return f.conditions.altitude ?? 'ground';
}

/**
 * The character protecting `defender` from an attack by `attacker` ("Defending and Protecting",
 * Protect): one in the fight waiting to take that ally's next hit, or null.
 */
export function protectorFor(fighters: Readonly<Record<string, Fighter>>, attacker: string, defender: string): Fighter | null {
  return Object.values(fighters).find((f) => f.conditions.protecting === defender && !f.out && f.id !== attacker) ?? null;
}

/** Whether two placed characters stand in adjacent squares at the same altitude band: Engaged in Melee when they are enemies ("Movement and Combat"). */
export function adjacent(a: Fighter, b: Fighter): boolean {
  const p = a.conditions.position;
  const q = b.conditions.position;
  if (!p || !q || altitudeOf(a) !== altitudeOf(b)) return false;
  return Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y)) <= 1 && Math.abs(p.elevation - q.elevation) <= 1;
}

/**
 * High Ground ("How Attacks Work", the Advantage table): the target stands lower than the attacker;
 * option `highGround` (C20) reads "roughly 1 metre or less below you" as at least 1 m lower, or as
 * lower by 1 m at most. Unplaced characters have none.
 */
export function hasHighGround(attacker: Fighter, target: Fighter, options: Pick<D100Options, 'highGround'>): boolean {
  const p = attacker.conditions.position;
  const q = target.conditions.position;
  if (!p || !q) return false;
  const drop = p.elevation - q.elevation;
  return options.highGround === 'at-least-1m-lower' ? drop >= 1 : drop > 0 && drop <= 1;
}
