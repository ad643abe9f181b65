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
} from '../../../rules/src/character/schema';
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
} from '../../../rules/src/character/derive';
export { checkCreation, powerUpgrades, type CheckReport } from '../../../rules/src/character/checks';
export { CHARACTER_RULES, type Violation, type Note } from '../../../rules/src/character/rules';
export { awardBalances, decideAdvancement, type AdvancementCommand } from '../../../rules/src/character/advancement';
export { describePurchase } from '../../../rules/src/character/purchases';
export {
  OPTION_DEFINITIONS,
  PRESETS,
  allowedValues,
  presetOptions,
  tableOptions,
  type OptionName,
  type Preset,
  type TableOptions,
} from '../../../rules/src/options/options';
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
} from '../../../rules/src/effects';
export { challengeOdds, unopposedOdds } from '../../../rules/src/odds/api';
export type { ChallengeOdds, OddsSide } from '../../../rules/src/odds/types';
export { DIFFICULTIES, difficultyLabel, parseDifficulty } from '../../../rules/src/challenge/difficulty';
export { assistBenefit, freePoolSide, unopposedGmDice, resolveChallenge, resolveUnopposed, type ChallengeResult, type SideResult } from '../../../rules/src/challenge/resolve';
export type { RerollSpec } from '../../../rules/src/challenge/reroll';
export { allocateAttributes } from '../../../rules/src/character/builder';
export { STATUS_LABEL, STATUS_PENALTY, threshold, statusForHits, ladder, type Status } from '../../../rules/src/encounter/injury';
export { STAGE_LABEL, escalationOrder, type Stage } from '../../../rules/src/time/clock';
export { bankTotal, type Snapshot, type CharacterState, type ResolveTrack, type Place } from '../../../rules/src/encounter/state';
export type { EncounterCommandInput } from '../../../rules/src/encounter/commands';
export type { TableView, CharacterView } from '../../../rules/src/table/view';
export type { LogEntry, Viewer } from '../../../rules/src/table/table';
export type { TableCommandInput } from '../../../rules/src/table/commands';
export { poolSize } from '../../../rules/src/challenge/pool';
export { composeSide, type BuiltSide } from '../../../rules/src/encounter/sides';
export { combatantFromSheet } from '../../../rules/src/encounter/sheet';
export { skillUse } from '../../../rules/src/encounter/combatant';
export { DomainError } from '../../../rules/src/encounter/errors';
