import { ownHas, type CommandError } from '@personae/core';
import type { EventType } from '../encounter';
import type { TableEvent, TableState } from './state';

/**
 * Events a table accepts from outside `decide` (an imported log): every event type is known, every
 * stamp is present, and every character an event names exists when the event applies. An import is
 * taken only if each of its events passes and folds; the compiler proves both lists complete.
 */
const TABLE_EVENT_TYPES = {
  configured: true,
  'character-added': true,
  'sheet-updated': true,
  'character-removed': true,
  'visibility-set': true,
  'owner-set': true,
  rolled: true,
  committed: true,
  revealed: true,
  'secret-reveal-set': true,
  encounter: true,
  said: true,
} as const satisfies Record<TableEvent['type'], true>;

const ENCOUNTER_EVENT_TYPES = {
  'set-up': true, 'options-changed': true, 'character-joined': true, 'character-updated': true, 'character-left': true,
  'session-began': true, 'session-ended': true, 'day-began': true, 'scene-began': true, 'scene-ended': true,
  escalated: true, 'de-escalated': true, 'encounter-ended': true, 'order-set': true, 'round-began': true,
  'turn-began': true, 'turn-skipped': true, 'turn-ended': true, 'round-ended': true, moved: true, 'action-taken': true,
  'ability-used': true, 'challenge-resolved': true, 'virtual-answered': true, 'hits-sustained': true, 'hits-removed': true,
  'status-changed': true, 'consciousness-changed': true, stabilized: true, died: true, 'recovery-set': true,
  'criticals-banked': true, 'criticals-spent': true, 'readied-success-used': true, 'resolve-worn': true,
  'criticals-expired': true, 'criticals-given': true, 'usage-counted': true, 'defense-declared': true, 'defense-ended': true,
  'assist-declared': true, 'assist-spent': true, 'action-spent-ahead': true, 'effect-started': true, 'effect-maintained': true,
  'effect-ended': true, 'order-changed': true, 'follow-up-pending': true, 'follow-up-ended': true, 'roll-tallied': true, undone: true, redone: true,
} as const satisfies Record<EventType, true>;

export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function fail(field: string, message: string): never {
  throw new InvalidEventError(field, message);
}

/** The shape every table event must have, without looking at the table. */
export function checkEventShape(raw: unknown): asserts raw is TableEvent {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail('event', 'an event is an object');
  const e = raw as Record<string, unknown>;
  if (typeof e.type !== 'string' || !Object.hasOwn(TABLE_EVENT_TYPES, e.type)) fail('type', `unknown event type ${JSON.stringify(e.type)}`);
  if (typeof e.by !== 'string' || typeof e.at !== 'string') fail('by', 'an event names who issued it (by) and when (at)');
  if ('id' in e && typeof e.id !== 'string') fail('id', 'a character id is a string');
  if (e.type === 'encounter') {
    const inner = e.event as Record<string, unknown> | undefined;
    if (!inner || typeof inner !== 'object' || typeof inner.type !== 'string' || !Object.hasOwn(ENCOUNTER_EVENT_TYPES, inner.type)) {
      fail('event.type', `unknown encounter event type ${JSON.stringify(inner?.type)}`);
    }
    if (typeof inner.seq !== 'number' || typeof inner.action !== 'number') fail('event.seq', 'an encounter event carries its seq and action');
  }
  if ((e.type === 'character-added' || e.type === 'sheet-updated') && (!e.sheet || typeof e.sheet !== 'object')) fail('sheet', 'the event carries a sheet');
  if ((e.type === 'rolled' || e.type === 'revealed') && (!e.result || typeof e.result !== 'object')) fail('result', 'a roll carries its result');
  if ((e.type === 'committed' || e.type === 'revealed') && (typeof e.hash !== 'string' || !/^[0-9a-f]{64}$/.test(e.hash))) fail('hash', 'a commitment is a SHA-256 hash: 64 lower-case hex digits');
  if (e.type === 'revealed' && (typeof e.salt !== 'string' || !Array.isArray(e.dice) || typeof e.committedAt !== 'number')) fail('salt', 'a revealed roll carries its salt, its dice and the entry of its commitment');
  if (e.type === 'rolled' && e.seal !== undefined && (typeof e.seal !== 'object' || e.seal === null || typeof (e.seal as Record<string, unknown>).hash !== 'string' || typeof (e.seal as Record<string, unknown>).salt !== 'string')) fail('seal', 'a sealed roll carries its hash and salt');
}

/** An event that names a character the table does not have, or adds one it has, cannot apply. */
export function checkEventApplies(state: TableState, event: TableEvent): void {
  switch (event.type) {
    case 'character-added':
      if (ownHas(state.characters, event.id)) fail('id', `character "${event.id}" is already at the table`);
      return;
    case 'sheet-updated':
    case 'character-removed':
    case 'visibility-set':
    case 'owner-set':
      if (!ownHas(state.characters, event.id)) fail('id', `there is no character "${event.id}" at this table`);
      return;
    default:
      return;
  }
}

/** The decider's `validateEvent`: the shape of one event from an imported log. */
export function validateTableEvent(raw: unknown): { ok: true; event: TableEvent } | { ok: false; error: CommandError } {
  try {
    checkEventShape(raw);
    return { ok: true, event: raw };
  } catch (e) {
    if (e instanceof InvalidEventError) return { ok: false, error: { code: 'invalid-event', message: e.message, field: e.field } };
    throw e;
  }
}
