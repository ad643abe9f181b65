import type { Actor } from './decider';
import { RuleError } from './errors';

/**
 * Ids of the characters a player creates live in their seat's own space, `<participant id>:<the id>`,
 * and no one may choose an id with a ":" for a new character. So no character the GM adds, hidden or
 * not, can hold an id in a seat's space, and a player's new character can only collide with one
 * created from their own seat: whether an id is free tells a player nothing about the characters they
 * cannot see. (Participant ids are never made with a ":".)
 */
export const SEAT_MARK = ':';

/** The id a new character gets when `actor` asks for `chosen`: in the seat's space for a player. */
export function newCharacterId(actor: Actor, chosen: string, field = 'id'): string {
  if (chosen.includes(SEAT_MARK)) {
    throw new RuleError('bad-id', `${field}: "${chosen}" contains "${SEAT_MARK}", which marks the ids of characters players create; choose an id without it`, field);
  }
  return actor.role === 'player' ? `${actor.participantId}${SEAT_MARK}${chosen}` : chosen;
}
