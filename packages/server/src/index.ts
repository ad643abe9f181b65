export { createServer, DEFAULTS, type ServerConfig, type TableServer } from './server';
export { configFromEnv } from './config';
export {
  RuleError,
  isRuleError,
  type Actor,
  type AnyDecider,
  type CommandError,
  type DecideContext,
  type Decider,
  type DiceSource,
  type ParseResult,
} from './domain';
export { diceLogDecider, type DiceLogCommand, type DiceLogEvent, type DiceLogState } from './dice-log';
export { FORMAT_VERSION, type TableExport, type ExportedEvent } from './export';
export { ERROR_CODES, type ServerMessage, type ErrorBody, type ClientMessage } from './protocol';
export { CLOSE } from './tables';
export { TokenBucket, type RateLimit } from './rate-limit';
export * from './store';
