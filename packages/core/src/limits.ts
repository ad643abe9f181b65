import type { Actor, HostLimits } from './decider';
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

/**
 * The host's bounds on characters, a rule of the table whatever its ruleset: a table holds at most
 * `maxCharacters`, and one player owns (controls) at most `maxCharactersPerPlayer` of them; the
 * characters no player owns (null) count only toward the first. `owners` holds the owner of every
 * character at the table now; `adding` is true when a character joins, false when one changes hands
 * to `owner`. Refuses with a RuleError naming the bound.
 */
export function requireCharacterRoom(
  owners: Iterable<string | null>,
  owner: string | null,
  limits: HostLimits | undefined,
  adding: boolean,
  ownerField = 'owner',
): void {
  if (!limits) return;
  let count = 0;
  let owned = 0;
  for (const o of owners) {
    count++;
    if (owner !== null && o === owner) owned++;
  }
  const max = limits.maxCharacters;
  if (adding && max !== undefined && count >= max) {
    throw new RuleError('too-many-characters', `this table already holds ${count} characters, the most it takes (${max}); the GM removes one first`, 'type');
  }
  const perPlayer = limits.maxCharactersPerPlayer;
  if (owner === null || perPlayer === undefined) return;
  if (owned >= perPlayer) {
    throw new RuleError('too-many-characters-per-player', `participant "${owner}" already plays ${owned} characters at this table, the most one player may (${perPlayer})`, ownerField);
  }
}

/**
 * The owners `requireCharacterRoom` counts when `actor` adds a character: every character for the
 * GM; for a player, only those they see (all but the ones hidden from them), so that whether the
 * table is full tells a player nothing of the characters they cannot see. A table thus holds more
 * than `maxCharacters` only when the GM hides characters; a player alone never takes it past.
 */
export function ownersSeenBy(actor: Actor, characters: Iterable<{ readonly owner: string | null; readonly hidden: boolean }>): Array<string | null> {
  const out: Array<string | null> = [];
  for (const c of characters) if (actor.role === 'gm' || !c.hidden || (c.owner !== null && c.owner === actor.participantId)) out.push(c.owner);
  return out;
}
