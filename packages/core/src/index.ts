export { commitRoll, newSalt, verifyRoll, type RevealedRoll, type RollCommitment, type Verification } from './commitment';
export { chooseRuleSets, ruleSetLabel, type RuleSetChoice } from './compare';
export { cite, defineRules, formatCitation, type Citation, type RuleEntry } from './citation';
export { OFFLINE_GM, OFFLINE_NOW, type Actor, type AnyDecider, type DecideContext, type Decider, type DiceSource, type HostLimits, type HostSettings, type ParseResult, type Viewer } from './decider';
export { envelope, type Envelope, type EventMetadata } from './envelope';
export { isRuleError, refusalOf, RuleError, toCommandError, type CommandError } from './errors';
export { DUEL_IDS, DUEL_ROUNDS, duelPair, playDuels, wilsonInterval, type DuelEnd, type DuelPair, type DuelSettings, type DuelTally } from './duels';
export { faceFit, outcomeFit, upperRegularizedGamma, type FaceFit, type OutcomeFit } from './fairness';
export { ownersSeenBy, requireCharacterRoom, requireSheetSize, SHEET_MAX_BYTES } from './limits';
export { describeModifier, explainTotal, modifier, sumModifiers, type Modifier } from './modifier';
export { ownGet, ownHas, withEntry, withoutEntry } from './records';
export { openPointKinds, openPointRow, type OpenPoint, type OpenPointHandling } from './open-points';
export {
  findRuleset,
  registeredRulesets,
  registerRuleset,
  type AnyRuleset,
  type OptionDescriptor,
  type Problem,
  type Ruleset,
  type RulesetDocument,
  type SheetCheck,
  type TableSetup,
} from './ruleset';
export { CLOCK_START, passTime, startEffect, tick, type ExpiryResult, type GameClock, type TimedEffect, type TimeUnit } from './time';
export { requireSeen, undoPosition, type UndoMark, type UndoPosition } from './undo';
export { chainItems, chainPush, type Chain } from './chain';
export { newCharacterId, SEAT_MARK } from './seat';
export { appendLog, EMPTY_LOG, logAt, logEntries, type TableLog } from './log';
export { asPoolDice, isPoolDice, isPoolName, mayFillPool, poolDice, requireEnteredPools, type DicePool, type EnteredPools, type PoolDice, type PoolOwner } from './pools';
export { indefiniteArticle, withArticle } from './words';
export {
  addToTally,
  checkRevealedDice,
  commitmentOpening,
  describeWithheld,
  emptyTally,
  fairnessRows,
  isSecretRollEvent,
  isWithheldRoll,
  recordedDice,
  revealLine,
  SECRET_LOG_KEPT,
  withheldRoll,
  withSecretRolls,
  type DiceTally,
  type FairnessRow,
  type RevealCheck,
  type RevealedSecret,
  type SealedRolls,
  type SecretRoller,
  type WithheldRoll,
  type SecretLogEntry,
  type SecretRollCommand,
  type SecretRollEvent,
  type SecretRollRules,
  type SecretRollsView,
  type SecretTableState,
  type TypedOutcome,
} from './secret';
