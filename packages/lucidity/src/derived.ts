import { ATTRIBUTES, type Attribute, type Attributes } from './attributes';
import type { LucidityOptions } from './options';

export interface DerivedInput {
  readonly level: number;
  /** The attribute modifiers in force now. */
  readonly attributes: Attributes;
  readonly traits: readonly string[];
  /**
   * The attributes in force at each level from 1 (index 0) to the current one, for
   * healthRecalc=incremental; without it every level uses the current attributes.
   */
  readonly history?: readonly Attributes[];
  /** A companion's Healthy Living (it gives this character 5 more Max Health too). */
  readonly companionHealthyLiving?: boolean;
}

export interface Derived {
  readonly maxLucidity: number;
  readonly maxHealth: number;
  readonly maxEnergy: number;
  readonly itemSlots: number;
  readonly designatedItems: number;
  readonly defense: number;
}

/** Maximum Lucidity = Level + 13 (lucidity-primary-character.txt, "Lucidity"). */
export function maxLucidity(level: number): number {
  return level + 13;
}

/**
 * Level 1: attribute + 6; every level gained: attribute + 4 (seed "Maximum Health", "Maximum Energy").
 * formula: every level counts the current attribute (L x A + 4L + 2); incremental: each level the
 * attribute it had then (C15).
 */
function grown(level: number, attr: Attribute, input: DerivedInput, opts: Pick<LucidityOptions, 'healthRecalc'>): number {
  if (opts.healthRecalc === 'incremental' && input.history && input.history.length >= level) {
    let total = input.history[0]![attr] + 6;
    for (let k = 1; k < level; k++) total += input.history[k]![attr] + 4;
    return total;
  }
  return level * input.attributes[attr] + 4 * level + 2;
}

/** Willful counts WIL in place of CON; Healthy Living adds 5 ("Creating Traits"). */
export function maxHealth(input: DerivedInput, opts: Pick<LucidityOptions, 'healthRecalc'>): number {
  const base = grown(input.level, input.traits.includes('Willful') ? 'WIL' : 'CON', input, opts);
  const healthy = input.traits.includes('Healthy Living') || input.companionHealthyLiving ? 5 : 0;
  return Math.max(1, base + healthy);
}

export function maxEnergy(input: DerivedInput, opts: Pick<LucidityOptions, 'healthRecalc'>): number {
  return Math.max(0, grown(input.level, 'WIL', input, opts));
}

/** 18 + STR; Hunk adds Level + CON (seed "Item Slots", "Creating Traits"). */
export function itemSlots(input: Pick<DerivedInput, 'level' | 'attributes' | 'traits'>): number {
  const hunk = input.traits.includes('Hunk') ? input.level + input.attributes.CON : 0;
  return 18 + input.attributes.STR + hunk;
}

/** 2 + DEX, at least 1; Organized adds 2 (seed "Item Slots", "Creating Traits"). */
export function designatedItems(input: Pick<DerivedInput, 'attributes' | 'traits'>): number {
  return Math.max(1, 2 + input.attributes.DEX) + (input.traits.includes('Organized') ? 2 : 0);
}

/** defenseBase + DEX + AWA; Precognition uses KNO in place of DEX (option defenseBase; seed "Attributes"). */
export function defense(input: Pick<DerivedInput, 'attributes' | 'traits'>, opts: Pick<LucidityOptions, 'defenseBase'>): number {
  const dexOrKno = input.traits.includes('Precognition') ? input.attributes.KNO : input.attributes.DEX;
  return opts.defenseBase + dexOrKno + input.attributes.AWA;
}

export function derive(input: DerivedInput, opts: LucidityOptions): Derived {
  return {
    maxLucidity: maxLucidity(input.level),
    maxHealth: maxHealth(input, opts),
    maxEnergy: maxEnergy(input, opts),
    itemSlots: itemSlots(input),
    designatedItems: designatedItems(input),
    defense: defense(input, opts),
  };
}

export function zeroAttributes(): Record<Attribute, number> {
  return Object.fromEntries(ATTRIBUTES.map((a) => [a, 0])) as Record<Attribute, number>;
}
