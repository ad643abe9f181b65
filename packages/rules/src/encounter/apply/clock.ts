import { emptyTally } from '../state';
import type { Appliers } from './shared';

/** Sessions, days, scenes and the escalation of encounters. */
export const CLOCK_EVENTS: Appliers<'session-began' | 'session-ended' | 'day-began' | 'scene-began' | 'scene-ended' | 'escalated' | 'de-escalated' | 'encounter-ended'> = {
  'session-began': (now, event) => {
    const characters = Object.fromEntries(Object.entries(now.characters).map(([id, c]) => [id, { ...c, lastSessionTally: c.tally, tally: emptyTally(event.session) }]));
    return { ...now, clock: { ...now.clock, session: event.session }, betweenSessions: false, characters };
  },
  'session-ended': (now) => ({ ...now, betweenSessions: true }),
  'day-began': (now, event) => ({ ...now, clock: { ...now.clock, day: event.day } }),
  'scene-began': (now, event) => ({ ...now, title: event.title ?? now.title, clock: { ...now.clock, scene: event.scene, stage: 'scene', peak: 'scene' } }),
  'scene-ended': (now) => now,
  'escalated': (now, event) => {
    const fresh = now.clock.stage === 'scene';
    return {
      ...now,
      clock: { ...now.clock, stage: event.to, encounter: event.encounter, peak: event.to },
      escalatedBy: event.by === 'gm' ? (fresh ? null : now.escalatedBy) : event.by,
    };
  },
  'de-escalated': (now, event) => ({ ...now, clock: { ...now.clock, stage: event.to }, combat: event.to === 'violent' ? now.combat : null }),
  'encounter-ended': (now, event) => {
    // Resolve tracks belong to the encounter they were worn in.
    const characters = Object.fromEntries(Object.entries(now.characters).map(([id, c]) => [id, c.resolve ? { ...c, resolve: null } : c]));
    return { ...now, clock: { ...now.clock, stage: 'scene', peak: 'scene' }, combat: null, escalatedBy: null, characters, lastChallenge: null };
  },
};
