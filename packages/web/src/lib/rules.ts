/**
 * The parts of the rules library the app runs in the browser, imported module by module so that
 * each page only ships what it uses. The sheet reader and writer (which bring the YAML parser) are
 * loaded on demand by sheet-files.ts.
 */
export {
  ATTRIBUTES,
  PRIORITIES,
  ROLES,
  TIERS,
  POWER_DURATIONS,
  SHEET_VERSION,
  CharacterSheetSchema,
  type AttributeName,
  type Attributes,
  type CharacterSheet,
  type Gear,
  type Priority,
  type Priorities,
  type Role,
  type Skill,
  type SpecialAbility,
  type Talent,
  type Power,
  type Tier,
  type Purchase,
  type HistoryEntry,
} from '@personae/rules/character/schema';
export {
  ATTRIBUTE_LABELS,
  PRIORITY_LABELS,
  DEFENSE_SKILLS,
  STARTING_SKILL_DICE,
  attributeCaps,
  attributeSum,
  assignedProwessDice,
  deriveCharacter,
  isDefenseSkill,
  potentialFromSum,
  prowessPool,
  sameName,
  traitUsage,
  developmentPoints,
  type CharacterOptions,
  type DerivedCharacter,
} from '@personae/rules/character/derive';
export { checkCreation, powerUpgrades, type CheckReport } from '@personae/rules/character/checks';
export { CHARACTER_RULES, type Violation, type Note } from '@personae/rules/character/rules';
export { awardBalances, decideAdvancement, type AdvancementCommand } from '@personae/rules/character/advancement';
export { describePurchase } from '@personae/rules/character/purchases';
export {
  OPTION_DEFINITIONS,
  PRESETS,
  allowedValues,
  isPreset,
  parseOptionAssignment,
  presetOptions,
  tableOptions,
  type OptionName,
  type Preset,
  type TableOptions,
} from '@personae/rules/options/options';
export {
  EFFECTS,
  EFFECT_TYPES,
  describeEffect,
  describeEffectWithScope,
  effectScope,
  effectSize,
  effectUpgrades,
  formatLabeled,
  sumLabeled,
  type AbilityEffect,
  type EffectTypeName,
  type Labeled,
} from '@personae/rules/effects';
export { challengeOdds, unopposedOdds } from '@personae/rules/odds/api';
export { atLeast, atMost, expected } from '@personae/rules/odds/decided';
export { declaredChallengeOdds, type DeclaredOdds } from '@personae/rules/lab/declared';
export type { EncounterState } from '@personae/rules/encounter/state';
export { COMPARED_FIELDS, oddsDifferences, ruleSetLabel, ruleSetsToCompare, type ComparedField, type OddsDifference, type RuleSet } from '@personae/rules/lab/compare';
export type { ChallengeOdds, OddsSide } from '@personae/rules/odds/types';
export { DIFFICULTIES, difficultyLabel, parseDifficulty } from '@personae/rules/challenge/difficulty';
export { poolDice, type EnteredPools } from '@personae/core';
export { ACTOR_POOL, DIFFICULTY_POOL } from '@personae/rules/encounter/pools';
export { assistBenefit, freePoolSide, unopposedGmDice, resolveChallenge, resolveUnopposed, type ChallengeResult, type SideResult } from '@personae/rules/challenge/resolve';
export type { RerollSpec } from '@personae/rules/challenge/reroll';
export { allocateAttributes } from '@personae/rules/character/builder';
export { STATUS_LABEL, STATUS_PENALTY, threshold, statusForHits, ladder, type Status } from '@personae/rules/encounter/injury';
export { STAGE_LABEL, escalationOrder, type Stage } from '@personae/rules/time/clock';
export { bankTotal, type Snapshot, type CharacterState, type ResolveTrack, type Place } from '@personae/rules/encounter/state';
export type { EncounterCommandInput } from '@personae/rules/encounter/commands';
export type { TableView, CharacterView } from '@personae/rules/table/view';
export type { ShownLogEntry, Viewer } from '@personae/rules/table/state';
export { entryLines } from '@personae/rules/table/state';
export { checkReveal, type RevealCheck } from '@personae/rules/table/secret';
export type { TableCommandInput } from '@personae/rules/table/commands';
export { poolSize } from '@personae/rules/challenge/pool';
export { composeSide, type BuiltSide } from '@personae/rules/encounter/sides';
export { combatantFromSheet } from '@personae/rules/encounter/sheet';
export { skillUse } from '@personae/rules/encounter/combatant';
export { weaponAttribute, weaponAttributeNote } from '@personae/rules/encounter/actions/weapons';
export { RuleError } from '@personae/rules/encounter/errors';
