import type { Citation } from '@personae/core';
import { RuleError, rule } from './errors';
import { applyEvent } from './evolve';
import type { EncounterEvent, EventBody } from './events';
import type { CharacterState, Snapshot } from './state';

/**
 * The events one command produces, built one at a time: each is applied to a working snapshot at
 * once, so that the decision for the next event reads the state the previous ones left.
 */
export class Batch {
  readonly events: EncounterEvent[] = [];
  private seq: number;
  private readonly action: number;
  private current: Snapshot | null;

  constructor(now: Snapshot | null, sequence: number) {
    this.current = now;
    this.seq = sequence;
    this.action = sequence + 1;
  }

  get now(): Snapshot {
    if (!this.current) throw new RuleError('not-set-up', 'the table has not been set up yet: start with a "set-up" command');
    return this.current;
  }

  emit(body: EventBody): void {
    const event = { ...body, seq: ++this.seq, action: this.action } as EncounterEvent;
    this.events.push(event);
    this.current = applyEvent(this.current, body);
  }
}

export function getCharacter(now: Snapshot, id: string, field: string): CharacterState {
  const c = now.characters[id];
  if (!c) throw new RuleError('unknown-character', `there is no character "${id}" at the table`, field);
  return c;
}

/** Why a character cannot act now, or null if it can. */
export function cannotAct(now: Snapshot, c: CharacterState): { code: string; message: string; rule: Citation } | null {
  const injury = rule('core', 'Injury and Death');
  if (!c.present) return { code: 'not-present', message: `${c.def.name} is not in this scene`, rule: rule('core', 'The Scene') };
  if (c.status === 'dead') return { code: 'cannot-act', message: `${c.def.name} is dead`, rule: injury };
  if (!c.conscious) return { code: 'cannot-act', message: `${c.def.name} is unconscious (${c.status}) and cannot act`, rule: injury };
  if (c.status === 'dying') return { code: 'cannot-act', message: `${c.def.name} is Dying and cannot act normally`, rule: rule('core', 'Healing and Recovery') };
  if (c.outForScene === now.clock.scene) {
    return { code: 'convalescing', message: `${c.def.name} is out of this scene convalescing: it may only attempt recovery`, rule: rule('core', 'Healing and Recovery') };
  }
  return null;
}

export function canAct(now: Snapshot, c: CharacterState): boolean {
  return cannotAct(now, c) === null;
}
