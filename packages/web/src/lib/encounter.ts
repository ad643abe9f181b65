import type { Place, ResolveTrack, TableOptions } from './rules';

/** The relative terms personae-core-2011.txt "Distance and Location" names; the group may use others. */
export const RELATIVE_TERMS = ['close', 'adjacent', 'very near', 'pretty far'] as const;

/** What the move form holds for the destination: a term under `relative`, two numbers typed under `grid`. */
export interface DestinationInput {
  readonly term: string;
  readonly x: string;
  readonly y: string;
}

export const EMPTY_DESTINATION: DestinationInput = { term: '', x: '', y: '' };

const COORDINATE_LIMIT = 10000;

/**
 * The `to` of a `move` command from the form, by option distance: `{}` when no destination is
 * given, `{ to }` when it is, or a problem to show next to the fields.
 */
export function moveDestination(distance: TableOptions['distance'], input: DestinationInput): { to?: Place } | { problem: string } {
  if (distance === 'relative') {
    const term = input.term.trim();
    if (!term) return {};
    if (term.length > 60) return { problem: 'A destination is at most 60 characters.' };
    return { to: term };
  }
  const x = input.x.trim();
  const y = input.y.trim();
  if (!x && !y) return {};
  if (!x || !y) return { problem: 'A square of the grid needs both x and y.' };
  const point = { x: Number(x), y: Number(y) };
  for (const v of [point.x, point.y]) {
    if (!Number.isInteger(v)) return { problem: 'x and y are whole numbers.' };
    if (Math.abs(v) > COORDINATE_LIMIT) return { problem: `x and y are between −${COORDINATE_LIMIT} and ${COORDINATE_LIMIT}.` };
  }
  return { to: point };
}

/** A position in words: the term itself, or "(x, y)". */
export function positionText(place: Place | null | undefined): string {
  if (place === null || place === undefined) return '';
  return typeof place === 'string' ? place : `(${place.x}, ${place.y})`;
}

/** A resolve track (option nonViolentExtended = health-track) in words: "2 of 3 left", or "yielded". */
export function resolveText(track: ResolveTrack | null | undefined): string {
  if (!track) return 'untouched';
  if (track.yielded) return `yielded (0 of ${track.size} left)`;
  return `${Math.max(0, track.size - track.worn)} of ${track.size} left`;
}

/** The note under a log the view has cut short: "3 older entries not shown". */
export function omittedText(omitted: number): string {
  if (omitted <= 0) return '';
  return `${omitted} older ${omitted === 1 ? 'entry' : 'entries'} not shown`;
}

/**
 * Whether this action is made out of turn without spending an action: the challenge a Taunt owes or a
 * Misdirection offers (personae-core-2011.txt "What Special Abilities Can Do"), from its issuer to its
 * reactor (a Taunt's is an attack), or any challenge of an obstacle or hazard ("Obstacles"). The
 * server decides the same; the form only stops offering what the server would refuse.
 */
export function actsOutOfTurn(
  follow: { readonly kind: 'taunt' | 'misdirection'; readonly actor: string; readonly reactor: string } | null | undefined,
  actor: { readonly id: string; readonly obstacle: boolean },
  kind: string,
  target: string,
): boolean {
  if (actor.obstacle) return true;
  if (!follow || follow.actor !== actor.id || follow.reactor !== target) return false;
  return kind === 'attack' || (follow.kind === 'misdirection' && (kind === 'power' || kind === 'interact'));
}
