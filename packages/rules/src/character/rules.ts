/**
 * Every rule a character sheet is checked against, by name, with the document and section it comes
 * from. Violations and advancement refusals name one of these rules.
 */

import type { Citation } from '@personae/core';

export const CORE_2011 = 'personae-core-2011.txt';

/** Where a character rule comes from: core's citation. */
export type RuleSource = Citation;

interface RuleMeta {
  readonly source: RuleSource;
  /** One sentence: what the rule requires. */
  readonly summary: string;
  /** Whether the rule is checked at creation (on the sheet as it was built), always, or on advancement. */
  readonly when: 'creation' | 'always' | 'advancement';
}

const core = (section: string): RuleSource => ({ document: CORE_2011, section });

export const CHARACTER_RULES = {
  'creation-points': {
    source: core('Step 1: Establish Starting Potential'),
    summary: 'Creation points are a whole number of at least 5, so that the starting Potential is at least 1.',
    when: 'creation',
  },
  'priorities-each-attribute-once': {
    source: core('The Order of Importance'),
    summary: 'The order of importance names every attribute exactly once: two First, two Second, one Third, one Handicap.',
    when: 'always',
  },
  'attributes-whole-numbers': {
    source: core('Attributes'),
    summary: 'Attribute values are whole numbers, zero or more.',
    when: 'always',
  },
  'attribute-sum-minimum': {
    source: core('Potential'),
    summary: 'The attributes add up to at least 5, so that Potential is at least 1.',
    when: 'always',
  },
  'attribute-sum-within-creation-points': {
    source: core('Step 3: Allocate Attribute Points'),
    summary: 'At creation the attributes add up to no more than the creation points.',
    when: 'creation',
  },
  'priority-caps': {
    source: core('Step 3: Allocate Attribute Points'),
    summary:
      'At creation an attribute is at most 40% (First), 30% (Second), 20% (Third) or 10% (Handicap) of the creation points, remainder ignored.',
    when: 'creation',
  },
  'priority-order': {
    source: core('The Order of Importance'),
    summary: 'No Second-priority attribute is above a First, no Third above a Second, and the Handicap is not above the Third.',
    when: 'always',
  },
  'skills-within-competence': {
    source: core('Competence'),
    summary: 'At creation the unlocked skills (Block, Dodge and Resist not counted) number no more than Competence.',
    when: 'creation',
  },
  'prowess-dice-within-pool': {
    source: core('Prowess Pool'),
    summary: 'Dice assigned to skills above their starting 2 come from the Prowess Pool: 3 x Prowess at creation, +3 per development point.',
    when: 'always',
  },
  'special-abilities-within-cunning': {
    source: core('Cunning'),
    summary:
      'At creation special abilities number no more than Cunning: a Quality counts as two, the culture ability is free, upgrades count one each (free for each Conditional limit).',
    when: 'creation',
  },
  'powers-within-power': {
    source: core('Using Power to Upgrade Special Abilities'),
    summary:
      "At creation powers and their upgrades, plus special ability upgrades paid with Power's points, number no more than Power.",
    when: 'creation',
  },
  'talents-within-knowledge': {
    source: core('Talents'),
    summary: 'At creation talents and their upgrades number no more than Knowledge; the native language is free.',
    when: 'creation',
  },
  'skill-starting-rating': {
    source: core('Skills'),
    summary: 'An unlocked skill is rated in whole dice, 2 or more.',
    when: 'always',
  },
  'skill-dice-within-maximum': {
    source: core('Prowess Pool'),
    summary: "A skill's rating is at most Potential + 2 dice.",
    when: 'always',
  },
  'trait-names-unique': {
    source: core('Step 5: Define Traits'),
    summary: 'Two skills, talents, special abilities, powers or gear items do not share a name, so that links between them are clear.',
    when: 'always',
  },
  'exceptional-gear-is-quality': {
    source: core('Special Ability Identifiers'),
    summary: 'A special ability identified as Exceptional Gear is also a Quality.',
    when: 'always',
  },
  'exceptional-gear-link': {
    source: core('Exceptional Gear'),
    summary: 'A special ability or power that unlocks exceptional gear names an item on the sheet.',
    when: 'always',
  },
  'special-ability-framework': {
    source: core('The Framework of Advancement'),
    summary:
      'A special ability gives a benefit of one; each further +1, die, rerolled die, better-result or highest-die option is an upgrade.',
    when: 'always',
  },
  'power-framework': {
    source: core('The Framework of Advancement'),
    summary:
      'A power affects one target, inflicts at most one hit and lasts Instant or Maintain; each extra target or hit, or an Independent or Special duration, is an upgrade.',
    when: 'always',
  },
  'injuring-powers-instant': {
    source: core('Duration / Duration Identifiers'),
    summary: 'A power that inflicts hits is a supernatural attack, and supernatural attacks are always Instant: not Maintain, Independent or Special.',
    when: 'always',
  },
  'starting-gear': {
    source: core('Step 6: Determine Starting Gear'),
    summary: 'A weapon skill names its weapon and a shield skill names its shield, and the sheet carries that item.',
    when: 'always',
  },
  'companion-prerequisites': {
    source: core('Companion Prerequisites'),
    summary: 'A character with a companion has Potential 4 or more and a special ability that represents that companion.',
    when: 'always',
  },
  'companions-per-character': {
    source: core('Companions'),
    summary: 'A character has no more companions than the table allows (option companionsPerCharacter).',
    when: 'always',
  },
  'companion-creation-points': {
    source: core('Companion Development'),
    summary: 'A companion is built on 10 creation points (starting Potential 1).',
    when: 'creation',
  },
  'companion-tier': {
    source: core('Companion Development'),
    summary: 'A companion starts as a minion and moves to minor, then major, one upgrade of its companion ability at a time.',
    when: 'always',
  },
  'supporting-character-tier': {
    source: core('Adversaries'),
    summary: 'Allies and adversaries are minion, minor or major; main characters have no tier.',
    when: 'always',
  },
  'history-well-formed': {
    source: core('Advancement'),
    summary: 'History entries have increasing ids; a spend draws on an earlier award; an undo names an earlier entry that is still in effect.',
    when: 'advancement',
  },
  'development-points-available': {
    source: core('Advancement'),
    summary: 'The points spent from an award are no more than the award.',
    when: 'advancement',
  },
  'award-attributes-or-traits': {
    source: core('Advancement'),
    summary: 'One award of development points goes to attributes or to traits, not both.',
    when: 'advancement',
  },
  'purchase-cost': {
    source: core('Advancement'),
    summary:
      'A point buys +1 attribute, a skill, 3 Prowess Pool dice, a special ability or upgrade, a power or upgrade, a talent or upgrade, or one more hit before Injured; a Quality or Exceptional Gear ability costs 2, a Quality upgrade costs qualityUpgradeCost.',
    when: 'advancement',
  },
  'history-replays': {
    source: core('Advancement'),
    summary: 'Every purchase in the history is still on the sheet, so that the sheet as created can be recovered.',
    when: 'advancement',
  },
  'purchase-target-exists': {
    source: core('Upgrades'),
    summary: 'An upgrade or dice assignment names a trait the character has.',
    when: 'advancement',
  },
  'priorities-changeable': {
    source: core('The Order of Importance'),
    summary: 'Attribute priorities change after creation only where the table allows it (option prioritiesChangeable).',
    when: 'advancement',
  },
  'undo-latest-first': {
    source: core('Advancement'),
    summary: 'Spends and awards are undone newest first.',
    when: 'advancement',
  },
} as const satisfies Record<string, RuleMeta>;

export type CharacterRuleName = keyof typeof CHARACTER_RULES;
export const CHARACTER_RULE_NAMES = Object.keys(CHARACTER_RULES) as CharacterRuleName[];

/** "personae-core-2011.txt, "Prowess Pool"" */
export function ruleSource(rule: CharacterRuleName): string {
  const { document, section } = CHARACTER_RULES[rule].source;
  return `${document}, "${section}"`;
}

/** A rule broken by a sheet. */
export interface Violation {
  /** Where on the sheet, e.g. `attributes.stature` or `skills[2].dice`. */
  readonly path: string;
  readonly rule: CharacterRuleName;
  /** A sentence a player understands. */
  readonly message: string;
  /** Document and section of the rule. */
  readonly source: string;
}

/** Information that is not an error (fewer traits than allowed, gear nothing unlocks, ...). */
export interface Note {
  readonly path?: string;
  readonly message: string;
}

export function violation(rule: CharacterRuleName, path: string, message: string): Violation {
  return { path, rule, message, source: ruleSource(rule) };
}
