/**
 * Elements and affinities (d100-combat-rules.txt, "Elemental Affinities"): ten regular elements and
 * Almighty, which no one has an affinity for.
 */
export const ELEMENTS = ['melee', 'missile', 'fire', 'ice', 'wind', 'elec', 'nuke', 'psy', 'bless', 'curse', 'almighty'] as const;
export type Element = (typeof ELEMENTS)[number];
export type RegularElement = Exclude<Element, 'almighty'>;
export const REGULAR_ELEMENTS = ELEMENTS.filter((e): e is RegularElement => e !== 'almighty');

/** Lowest to highest, as the seed ranks them. */
export const AFFINITIES = ['weak', 'normal', 'resist', 'block', 'repel', 'absorb'] as const;
export type Affinity = (typeof AFFINITIES)[number];

export type AffinityTable = Readonly<Partial<Record<RegularElement, Affinity>>>;

/** Physical attacks are those of the Melee and Missile elements; every other element is magic. */
export function isPhysical(element: Element): boolean {
  return element === 'melee' || element === 'missile';
}

export function affinityOf(table: AffinityTable, element: Element): Affinity {
  if (element === 'almighty') return 'normal';
  return table[element] ?? 'normal';
}

/** Block, Repel and Absorb leave the bearer untouched by the element: the seed's "immunity". */
export function isImmune(table: AffinityTable, element: Element): boolean {
  const a = affinityOf(table, element);
  return a === 'block' || a === 'repel' || a === 'absorb';
}
