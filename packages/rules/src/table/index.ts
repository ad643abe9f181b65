export * from './commands';
export * from './table';
export * from './view';
export * from './decider';
export { diceEntries, requireDiceAuthority, type DiceEntry, type DicePool } from './dice';
export { hiddenSideShown, publicEncounterEvent, publicResult, type HiddenSideShown } from './hidden';
export { appendLog, logAt, logEntries, type TableLog } from './log';
export { validateTableEvent } from './validate';
export { checkReveal, committedDice, sealResult, SECRET_REVEALS, type RevealCheck, type RevealedSecret, type SealedRoll, type SecretReveal } from './secret';
