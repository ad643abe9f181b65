// The decider seam lives in @personae/core; the server re-exports it under the names its modules use.
export {
  asPoolDice,
  requireEnteredPools,
  withArticle,
  isRuleError,
  poolDice,
  refusalOf,
  RuleError,
  type Actor,
  type AnyDecider,
  type CommandError,
  type DecideContext,
  type Decider,
  type DiceSource,
  type HostLimits,
  type ParseResult,
} from '@personae/core';
