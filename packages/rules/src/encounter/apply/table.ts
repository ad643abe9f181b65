import { START_CLOCK } from '../../time';
import type { EventBody } from '../events';
import type { CharacterState, Snapshot } from '../state';
import { newCharacter, setCharacter, setCombat, type Appliers } from './shared';

/** Who is at the table and the options it plays by. */
export const TABLE_EVENTS: Appliers<'character-joined' | 'options-changed' | 'character-updated' | 'character-left'> = {
  'character-joined': (now, event) => {
    const existing = now.characters[event.character.id];
    if (existing) return setCharacter(now, event.character.id, { def: event.character, present: true });
    return {
      ...now,
      roster: now.roster.includes(event.character.id) ? now.roster : [...now.roster, event.character.id],
      characters: { ...now.characters, [event.character.id]: newCharacter(event.character, now) },
    };
  },
  'options-changed': (now, event) => {
    // Positions of the other form mean nothing once the table changes how it tracks distance.
    if (event.options.distance === now.options.distance) return { ...now, options: event.options };
    const characters = Object.fromEntries(Object.entries(now.characters).map(([id, c]) => [id, { ...c, position: null }]));
    return { ...now, options: event.options, characters };
  },
  'character-updated': (now, event) => {
    // The encounter keeps its own tally of hits and status; the definition is what changes.
    return setCharacter(now, event.character.id, { def: event.character });
  },
  'character-left': (now, event) => {
    const next = setCharacter(now, event.id, { present: false });
    return setCombat(next, (c) => ({ order: c.order.filter((id) => id !== event.id), index: Math.min(c.index, Math.max(0, c.order.filter((id) => id !== event.id).length - 1)) }));
  },
};

/** The table is set up: its options, its characters, and the clock at its start. */
export function setUp(event: Extract<EventBody, { type: 'set-up' }>): Snapshot {
  const base = { options: event.options, clock: START_CLOCK };
  const characters: Record<string, CharacterState> = {};
  const banks: Record<string, { count: number; earned: { session: number; day: number; scene: number; encounter: null } }[]> = {};
  for (const def of event.characters) {
    characters[def.id] = newCharacter(def, base);
    if (def.criticals > 0) banks[def.id] = [{ count: def.criticals, earned: { session: 1, day: 1, scene: 1, encounter: null } }];
  }
  return {
    title: event.title,
    options: event.options,
    clock: START_CLOCK,
    betweenSessions: false,
    roster: event.characters.map((c) => c.id),
    characters,
    escalatedBy: null,
    combat: null,
    banks,
    usage: {},
    effects: [],
    nextEffectId: 1,
    lastChallenge: null,
  };
}
