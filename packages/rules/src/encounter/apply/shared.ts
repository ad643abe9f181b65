import { knocksOut, statusForHits } from '../injury';
import type { Combatant } from '../combatant';
import type { EventBody, EventType } from '../events';
import { emptyTally, type CharacterState, type Combat, type Snapshot } from '../state';

/**
 * How one event changes the snapshot. `evolve` applies each event with the function registered for
 * its type; the modules of this folder hold them by what the events are about.
 */
export type Apply<K extends EventType> = (now: Snapshot, event: Extract<EventBody, { type: K }>) => Snapshot;
export type Appliers<K extends EventType> = { readonly [T in K]: Apply<T> };

export function newCharacter(def: Combatant, now: Pick<Snapshot, 'options' | 'clock'>): CharacterState {
  const status = statusForHits(def, now.options, def.hits);
  return {
    def,
    hits: def.hits,
    status,
    conscious: !knocksOut(status),
    stabilized: false,
    relapse: false,
    outForScene: null,
    recoverFromScene: now.clock.scene,
    lastRecoveryScene: null,
    healLater: null,
    present: true,
    position: null,
    readiedSuccess: false,
    tally: emptyTally(now.clock.session),
    lastSessionTally: null,
    resolve: null,
  };
}

export function setCharacter(now: Snapshot, id: string, change: Partial<CharacterState>): Snapshot {
  const c = now.characters[id];
  if (!c) return now;
  return { ...now, characters: { ...now.characters, [id]: { ...c, ...change } } };
}

export function setCombat(now: Snapshot, change: (c: Combat) => Partial<Combat>): Snapshot {
  if (!now.combat) return now;
  return { ...now, combat: { ...now.combat, ...change(now.combat) } };
}

export function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}
