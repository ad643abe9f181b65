import { RuleError } from './errors';

/** The largest character sheet a table takes, as JSON; the same cap for every ruleset. */
export const SHEET_MAX_BYTES = 64 * 1024;

/** Refuses a sheet larger than SHEET_MAX_BYTES as JSON, naming the field and the size. */
export function requireSheetSize(raw: unknown, field = 'sheet'): void {
  const text = JSON.stringify(raw ?? null);
  const size = new TextEncoder().encode(text).length;
  if (size > SHEET_MAX_BYTES) {
    throw new RuleError('sheet-too-large', `${field}: the sheet is ${size} bytes as JSON; a table takes sheets of at most ${SHEET_MAX_BYTES} bytes`, field);
  }
}
