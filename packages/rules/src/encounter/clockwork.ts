import { expiresAt, type Moment } from '../time';
import type { Batch } from './batch';
import { applyStatusNow, talliedStatus } from './health';
import { STATUS_LABEL } from './injury';

/**
 * What happens as time passes: the end of an encounter, of a scene, the start of a day or session
 * (personae-core-2011.txt "Space and Time", "Time and Encounters", "Healing and Recovery",
 * "Critical Success").
 */

/** Banked criticals that expire at this moment (option criticalsLast). */
export function expireCriticals(b: Batch, moment: Moment, reason: string): void {
  const now = b.now;
  for (const [owner, entries] of Object.entries(now.banks)) {
    const count = entries.filter((e) => expiresAt(e.earned, moment, now.options.criticalsLast)).reduce((s, e) => s + e.count, 0);
    if (count > 0) b.emit({ type: 'criticals-expired', owner, count, reason: `${reason} (option criticalsLast = ${now.options.criticalsLast})` });
  }
}

/**
 * The end of an encounter. After a violent one: statuses waiting for the end of the round take
 * effect; a Dying character nobody stabilized dies; hits short of Injured are removed; Wounded,
 * Incapacitated and Dying characters may attempt recovery only in the following scene, and the last two
 * are out of it convalescing. Powers lasting to the end of the encounter end. A completed non-violent
 * encounter lifts the relapse a character carries after recovering from Incapacitated.
 */
export function endEncounter(b: Batch): void {
  const start = b.now;
  if (start.clock.stage === 'scene') return;
  const encounter = start.clock.encounter;
  const violent = start.clock.peak === 'violent';
  if (start.combat) for (const id of start.roster) applyStatusNow(b, id, 'the violent encounter ends');
  for (const id of b.now.roster) {
    const c = b.now.characters[id]!;
    if (c.status === 'dying' && !c.stabilized) {
      b.emit({ type: 'died', target: id, reason: 'Dying at the end of the encounter and not stabilized (personae-core-2011.txt "Injury and Death")' });
    }
  }
  for (const e of b.now.effects) {
    if (e.encounter === encounter && e.duration !== 'special') b.emit({ type: 'effect-ended', id: e.id, reason: 'the encounter is over' });
  }
  b.emit({ type: 'encounter-ended', encounter, peak: start.clock.peak });
  expireCriticals(b, { kind: 'encounter-ended', encounter }, `encounter ${encounter} ended`);
  const scene = b.now.clock.scene;
  for (const id of b.now.roster) {
    const c = b.now.characters[id]!;
    if (c.status === 'dead') continue;
    if (violent) {
      const status = talliedStatus(b.now, c);
      if (status === 'unharmed' && c.hits > 0) {
        b.emit({ type: 'hits-removed', target: id, before: c.hits, after: 0, reason: 'hits short of Injured are removed at the end of a violent encounter (personae-core-2011.txt "Healing and Recovery")' });
      } else if (status === 'wounded') {
        b.emit({ type: 'recovery-set', target: id, recoverFromScene: Math.max(c.recoverFromScene, scene + 1), reason: 'Wounded: recovery only in the scene following the violent encounter' });
      } else if (status === 'incapacitated' || status === 'dying') {
        b.emit({
          type: 'recovery-set',
          target: id,
          recoverFromScene: Math.max(c.recoverFromScene, scene + 1),
          outForScene: scene + 1,
          reason: `${STATUS_LABEL[status]}: out of the following scene, where it may only attempt recovery`,
        });
      }
    } else if (c.relapse) {
      b.emit({ type: 'recovery-set', target: id, relapse: false, reason: 'a non-violent encounter has been completed' });
    }
  }
}

/** The end of the scene: the other half of an Injured character's hits heal; scene-long powers end. */
function endScene(b: Batch): void {
  if (b.now.clock.stage !== 'scene') endEncounter(b);
  const scene = b.now.clock.scene;
  for (const id of b.now.roster) {
    const c = b.now.characters[id]!;
    if (c.healLater && c.healLater.atEndOfScene <= scene && c.status !== 'dead') {
      const after = Math.max(0, c.hits - c.healLater.hits);
      if (after !== c.hits) b.emit({ type: 'hits-removed', target: id, before: c.hits, after, reason: 'the other half of the hits heal at the end of the following scene (personae-core-2011.txt "Healing and Recovery")' });
      b.emit({ type: 'recovery-set', target: id, healLater: null, reason: 'healed' });
      applyStatusNow(b, id, 'healed at the end of the scene');
    }
  }
  for (const e of b.now.effects) {
    if (e.duration !== 'special') b.emit({ type: 'effect-ended', id: e.id, reason: 'the scene is over' });
  }
  expireCriticals(b, { kind: 'scene-ended', scene }, `scene ${scene} ended`);
  b.emit({ type: 'scene-ended', scene });
}

export function beginScene(b: Batch, title?: string): void {
  endScene(b);
  b.emit({ type: 'scene-began', scene: b.now.clock.scene + 1, ...(title ? { title } : {}) });
}

export function beginDay(b: Batch): void {
  endScene(b);
  b.emit({ type: 'day-began', day: b.now.clock.day + 1 });
  expireCriticals(b, { kind: 'day-began' }, `day ${b.now.clock.day} began`);
  b.emit({ type: 'scene-began', scene: b.now.clock.scene + 1 });
}

export function beginSession(b: Batch): void {
  endScene(b);
  b.emit({ type: 'session-began', session: b.now.clock.session + 1 });
  expireCriticals(b, { kind: 'session-began' }, `session ${b.now.clock.session} began`);
  b.emit({ type: 'scene-began', scene: b.now.clock.scene + 1 });
}
