import type { TableOptions } from '../options/options';
import type { Labeled } from '../effects';
import {
  ATTRIBUTES,
  type AnySheet,
  type AttributeName,
  type Attributes,
  type HistoryEntry,
  type Priorities,
  type Priority,
  type Skill,
  type SpecialAbility,
  type Tier,
} from './schema';

export type CharacterOptions = Pick<TableOptions, 'potential' | 'qualityUpgradeCost' | 'rerollDefault' | 'companionsPerCharacter' | 'creationPoints'>;

export const ATTRIBUTE_LABELS: Record<AttributeName, string> = {
  competence: 'Competence',
  prowess: 'Prowess',
  cunning: 'Cunning',
  power: 'Power',
  knowledge: 'Knowledge',
  stature: 'Stature',
};
export const PRIORITY_LABELS: Record<Priority, string> = { first: 'First', second: 'Second', third: 'Third', handicap: 'Handicap' };

// ---------------------------------------------------------------------------------------------
// Potential. personae-core-2011.txt "Potential": attribute sum / 5, remainder ignored, at least 1
// (option `potential`: the later revisions divide by 10).

export function potentialFromSum(sum: number, options: Pick<TableOptions, 'potential'>): number {
  const divisor = options.potential === 'later' ? 10 : 5;
  return Math.max(1, Math.floor(sum / divisor));
}

export function attributeSum(attributes: Attributes): number {
  return ATTRIBUTES.reduce((total, a) => total + attributes[a], 0);
}

/** The Potential Threshold of the later revisions: Potential + 2. */
export function potentialThreshold(potential: number): number {
  return potential + 2;
}

/** personae-core-2011.txt "Prowess Pool": the most dice a skill may have is Potential + 2. */
export function maxSkillDice(potential: number): number {
  return potential + 2;
}

// ---------------------------------------------------------------------------------------------
// Order of importance. personae-core-2011.txt "Step 3: Allocate Attribute Points": 40/30/20/10
// percent of the creation points, remainder ignored.

const CAP_TENTHS: Record<Priority, number> = { first: 4, second: 3, third: 2, handicap: 1 };

export function attributeCaps(creationPoints: number): Record<Priority, number> {
  const cap = (p: Priority) => Math.floor((Math.max(0, Math.trunc(creationPoints)) * CAP_TENTHS[p]) / 10);
  return { first: cap('first'), second: cap('second'), third: cap('third'), handicap: cap('handicap') };
}

/** The priority of each attribute; an attribute the priorities do not name has none. */
export function priorityOf(priorities: Priorities): Partial<Record<AttributeName, Priority>> {
  const out: Partial<Record<AttributeName, Priority>> = {};
  // Later entries do not overwrite earlier ones, so a duplicated name keeps its higher priority.
  const set = (a: AttributeName, p: Priority) => {
    if (!(a in out)) out[a] = p;
  };
  priorities.first.forEach((a) => set(a, 'first'));
  priorities.second.forEach((a) => set(a, 'second'));
  set(priorities.third, 'third');
  set(priorities.handicap, 'handicap');
  return out;
}

export function attributesWithPriority(priorities: Priorities, priority: Priority): AttributeName[] {
  switch (priority) {
    case 'first':
      return [...priorities.first];
    case 'second':
      return [...priorities.second];
    case 'third':
      return [priorities.third];
    case 'handicap':
      return [priorities.handicap];
  }
}

// ---------------------------------------------------------------------------------------------
// Skills. personae-core-2011.txt "Defense": Block, Dodge and Resist are unlocked for everyone at two
// dice, with Stature, Cunning and Power by default.

export const DEFENSE_SKILLS: readonly Skill[] = [
  { name: 'Block', attribute: 'stature', dice: 2 },
  { name: 'Dodge', attribute: 'cunning', dice: 2 },
  { name: 'Resist', attribute: 'power', dice: 2 },
];
export const STARTING_SKILL_DICE = 2;

export function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
export function isDefenseSkill(name: string): boolean {
  return DEFENSE_SKILLS.some((d) => sameName(d.name, name));
}

/** The sheet's skills plus any of Block, Dodge and Resist it does not list. */
export function allSkills(sheet: AnySheet): (Skill & { defense: boolean })[] {
  const listed = sheet.skills.map((s) => ({ ...s, defense: isDefenseSkill(s.name) }));
  const missing = DEFENSE_SKILLS.filter((d) => !sheet.skills.some((s) => sameName(s.name, d.name))).map((d) => ({ ...d, defense: true }));
  return [...listed, ...missing];
}

/** Dice on skills above their starting two: the assigned part of the Prowess Pool. */
export function assignedProwessDice(sheet: AnySheet): number {
  return sheet.skills.reduce((total, s) => total + Math.max(0, s.dice - STARTING_SKILL_DICE), 0);
}

// ---------------------------------------------------------------------------------------------
// History. An entry is in effect unless a later `undo` entry names it.

export function undoneIds(history: readonly HistoryEntry[]): Set<number> {
  const undone = new Set<number>();
  for (const e of history) if (e.type === 'undo') undone.add(e.entry);
  return undone;
}

/** Awards and spends that are in effect, in order. */
export function effectiveEntries(history: readonly HistoryEntry[]): Exclude<HistoryEntry, { type: 'undo' }>[] {
  const undone = undoneIds(history);
  return history.filter((e): e is Exclude<HistoryEntry, { type: 'undo' }> => e.type !== 'undo' && !undone.has(e.id));
}

export type SpendEntry = Extract<HistoryEntry, { type: 'spend' }>;
export function effectiveSpends(history: readonly HistoryEntry[]): SpendEntry[] {
  return effectiveEntries(history).filter((e): e is SpendEntry => e.type === 'spend');
}

export function historyOf(sheet: AnySheet): readonly HistoryEntry[] {
  return 'history' in sheet ? sheet.history : [];
}

export interface DevelopmentPoints {
  readonly awarded: number;
  readonly spent: number;
  readonly unspent: number;
}
export function developmentPoints(sheet: AnySheet): DevelopmentPoints {
  let awarded = 0;
  let spent = 0;
  for (const e of effectiveEntries(historyOf(sheet))) {
    if (e.type === 'award') awarded += e.points;
    else spent += e.cost;
  }
  return { awarded, spent, unspent: awarded - spent };
}

function countPurchases(sheet: AnySheet, kind: string, match?: (p: SpendEntry['purchase']) => boolean): number {
  return effectiveSpends(historyOf(sheet)).filter((e) => e.purchase.kind === kind && (!match || match(e.purchase))).length;
}

/** The attributes the character was created with: the current ones less advancement purchases. */
export function creationAttributes(sheet: AnySheet): Attributes {
  const out = { ...sheet.attributes };
  for (const e of effectiveSpends(historyOf(sheet))) {
    if (e.purchase.kind === 'attribute') out[e.purchase.attribute] -= 1;
  }
  return out;
}

/**
 * personae-core-2011.txt "Prowess Pool": 3 x Prowess at creation, plus 3 dice per development
 * point spent on the pool.
 */
export function prowessPool(sheet: AnySheet): number {
  return 3 * creationAttributes(sheet).prowess + 3 * countPurchases(sheet, 'prowess-pool');
}

// ---------------------------------------------------------------------------------------------
// Health. personae-core-2011.txt "Health", "Injury and Death", "Adversaries".

export function tierOf(sheet: AnySheet): Tier | null {
  if (sheet.role === 'main') return null;
  return sheet.tier ?? (sheet.role === 'companion' ? 'minion' : 'major');
}

export type HealthStatusName = 'injured' | 'wounded' | 'incapacitated' | 'dying';
/** The status levels a character passes through: minions only have Incapacitated and Dying. */
export function healthStatuses(sheet: AnySheet): HealthStatusName[] {
  return tierOf(sheet) === 'minion' ? ['incapacitated', 'dying'] : ['injured', 'wounded', 'incapacitated', 'dying'];
}

/**
 * Hits a character takes before its first status level: 1 + Stature + bonuses for main characters
 * and major supporting characters; one for minor ones (they are Injured by a single hit) and for
 * minions (one hit leaves them Incapacitated).
 */
export function hitsBeforeInjured(sheet: AnySheet): { total: number; parts: Labeled[] } {
  const tier = tierOf(sheet);
  if (tier === 'minor' || tier === 'minion') {
    return { total: 1, parts: [{ value: 1, source: `${tier} ${sheet.role === 'companion' ? 'companion' : 'supporting character'}` }] };
  }
  const parts: Labeled[] = [
    { value: 1, source: 'base' },
    { value: sheet.attributes.stature, source: 'Stature' },
  ];
  for (const sa of sheet.specialAbilities) {
    if (sa.effect.type === 'extra-hits-before-injured') parts.push({ value: sa.effect.hits, source: sa.name });
  }
  const bought = countPurchases(sheet, 'hit');
  if (bought > 0) parts.push({ value: bought, source: 'advancement' });
  return { total: parts.reduce((t, p) => t + p.value, 0), parts };
}

// ---------------------------------------------------------------------------------------------
// Resources. personae-core-2011.txt "Resources".

export type Rarity = 'common' | 'uncommon' | 'rare' | 'very rare' | 'unique';
/** The example cost bands: 0 common, 1-3 uncommon, 4-6 rare, 7-9 very rare, 10+ unique. */
export function rarityOf(cost: number): Rarity {
  if (cost <= 0) return 'common';
  if (cost <= 3) return 'uncommon';
  if (cost <= 6) return 'rare';
  if (cost <= 9) return 'very rare';
  return 'unique';
}

export interface ResourceCap {
  readonly permanent: number;
  readonly temporary: number;
  readonly total: number;
}
export function resourceCap(sheet: AnySheet): ResourceCap {
  // A purchase may lower the Cap (personae-core-2011.txt "Resources"): what was lost comes off what the talents give.
  const given = sheet.talents.filter((t) => t.kind === 'resource').reduce((n, t) => n + t.resourceCap, 0);
  const permanent = Math.max(0, given - (sheet.resourceCapLost ?? 0));
  const temporary = sheet.resourceBoosts.filter((b) => b.scenes > 0).reduce((n, b) => n + b.amount, 0);
  return { permanent, temporary, total: permanent + temporary };
}

/** Items whose cost is above the Resource Cap cannot be bought. */
export function canAfford(sheet: AnySheet, cost: number): boolean {
  return cost <= resourceCap(sheet).total;
}

/** A scene ends: temporary Resource Cap boosts count down and those used up are dropped. */
export function endScene<S extends AnySheet>(sheet: S): S {
  const resourceBoosts = sheet.resourceBoosts.map((b) => ({ ...b, scenes: b.scenes - 1 })).filter((b) => b.scenes > 0);
  return { ...sheet, resourceBoosts };
}

// ---------------------------------------------------------------------------------------------
// Trait costs at creation. personae-core-2011.txt "Step 4", "Step 5: Define Traits" and
// "Special Ability Identifiers".

/** The ability that is the free culture ability: the first one marked culture. */
export function freeCultureIndex(abilities: readonly SpecialAbility[]): number {
  return abilities.findIndex((a) => a.culture);
}

/** What taking the ability counts for: 1, or 2 for a Quality (Exceptional Gear is always a Quality). */
export function abilityBaseValue(ability: SpecialAbility): number {
  return ability.quality || ability.exceptionalGear !== undefined ? 2 : 1;
}

/** Upgrades beyond the free Conditional ones, each at the Quality upgrade cost for a Quality. */
export function abilityPaidUpgrades(ability: SpecialAbility, options: Pick<TableOptions, 'qualityUpgradeCost'>): number {
  const paid = Math.max(0, ability.upgrades - ability.conditional.length);
  return paid * (ability.quality ? options.qualityUpgradeCost : 1);
}

/** What a talent counts for: one, plus one per upgrade; the first native language is free. */
export function talentValue(talent: { kind: string; uses: number; dice: number; resourceCap: number }): number {
  return 1 + (talent.uses - 1) + (talent.dice - 1) + (talent.resourceCap - 1);
}

export interface TraitUsage {
  readonly skills: number;
  readonly talents: number;
  /** Special abilities counted (Quality as two, culture free). */
  readonly specialAbilities: number;
  /** Paid special ability upgrades. */
  readonly specialAbilityUpgrades: number;
  /** Powers and their upgrades. */
  readonly powers: number;
  /** Special ability upgrades beyond Cunning, paid with Power's points. */
  readonly upgradesFromPower: number;
}

export function traitUsage(sheet: AnySheet, options: Pick<TableOptions, 'qualityUpgradeCost'>): TraitUsage {
  const skills = sheet.skills.filter((s) => !isDefenseSkill(s.name)).length;
  const nativeIndex = sheet.talents.findIndex((t) => t.kind === 'language' && t.native);
  const talents = sheet.talents.reduce((n, t, i) => n + (i === nativeIndex ? talentValue(t) - 1 : talentValue(t)), 0);
  const culture = freeCultureIndex(sheet.specialAbilities);
  const specialAbilities = sheet.specialAbilities.reduce((n, a, i) => n + abilityBaseValue(a) - (i === culture ? 1 : 0), 0);
  const specialAbilityUpgrades = sheet.specialAbilities.reduce((n, a) => n + abilityPaidUpgrades(a, options), 0);
  const powers = sheet.powers.reduce((n, p) => n + 1 + p.upgrades, 0);
  const cunning = Math.max(0, sheet.attributes.cunning);
  const upgradesFromPower = Math.max(0, specialAbilities + specialAbilityUpgrades - Math.max(cunning, specialAbilities));
  return { skills, talents, specialAbilities, specialAbilityUpgrades, powers, upgradesFromPower };
}

// ---------------------------------------------------------------------------------------------

export interface DerivedSkill {
  readonly name: string;
  readonly attribute: AttributeName;
  readonly attributeValue: number;
  readonly dice: number;
  readonly defense: boolean;
  readonly weapon?: string;
  readonly shield?: string;
}

export interface DerivedCharacter {
  readonly attributeSum: number;
  readonly potential: number;
  readonly potentialThreshold: number;
  readonly startingPotential: number;
  readonly maxSkillDice: number;
  /** Total Prowess Pool dice. */
  readonly prowessPool: number;
  readonly prowessDice: { readonly assigned: number; readonly unassigned: number };
  readonly hitsBeforeInjured: number;
  readonly hitsBeforeInjuredParts: readonly Labeled[];
  readonly healthStatuses: readonly HealthStatusName[];
  readonly tier: Tier | null;
  /** Highest value an attribute of each priority may start with, from the creation points. */
  readonly attributeCaps: Record<Priority, number>;
  readonly priorityOf: Partial<Record<AttributeName, Priority>>;
  /** Trait maxima at creation: the attributes the character was created with. */
  readonly limits: { readonly skills: number; readonly specialAbilities: number; readonly powers: number; readonly talents: number };
  readonly skills: readonly DerivedSkill[];
  readonly resourceCap: ResourceCap;
  readonly developmentPoints: DevelopmentPoints;
  readonly criticals: number;
}

/** Everything a sheet implies: Potential, maxima, pools, health thresholds. */
export function deriveCharacter(sheet: AnySheet, options: Pick<TableOptions, 'potential'>): DerivedCharacter {
  const sum = attributeSum(sheet.attributes);
  const potential = potentialFromSum(sum, options);
  const created = creationAttributes(sheet);
  const pool = prowessPool(sheet);
  const assigned = assignedProwessDice(sheet);
  const hits = hitsBeforeInjured(sheet);
  return {
    attributeSum: sum,
    potential,
    potentialThreshold: potentialThreshold(potential),
    startingPotential: potentialFromSum(sheet.creationPoints, options),
    maxSkillDice: maxSkillDice(potential),
    prowessPool: pool,
    prowessDice: { assigned, unassigned: pool - assigned },
    hitsBeforeInjured: hits.total,
    hitsBeforeInjuredParts: hits.parts,
    healthStatuses: healthStatuses(sheet),
    tier: tierOf(sheet),
    attributeCaps: attributeCaps(sheet.creationPoints),
    priorityOf: priorityOf(sheet.priorities),
    limits: { skills: created.competence, specialAbilities: created.cunning, powers: created.power, talents: created.knowledge },
    skills: allSkills(sheet).map((s) => ({
      name: s.name,
      attribute: s.attribute,
      attributeValue: sheet.attributes[s.attribute],
      dice: s.dice,
      defense: s.defense,
      ...(s.weapon !== undefined ? { weapon: s.weapon } : {}),
      ...(s.shield !== undefined ? { shield: s.shield } : {}),
    })),
    resourceCap: resourceCap(sheet),
    developmentPoints: developmentPoints(sheet),
    criticals: sheet.criticals,
  };
}

