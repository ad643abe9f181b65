import type { Appliers } from './shared';

/** Powers in effect: started, kept up, ended. */
export const EFFECT_EVENTS: Appliers<'effect-started' | 'effect-maintained' | 'effect-ended'> = {
  'effect-started': (now, event) => ({ ...now, effects: [...now.effects, event.effect], nextEffectId: Math.max(now.nextEffectId, event.effect.id + 1) }),
  'effect-maintained': (now, event) => ({ ...now, effects: now.effects.map((e) => (e.id === event.id ? { ...e, maintainedRound: event.round } : e)) }),
  'effect-ended': (now, event) => ({ ...now, effects: now.effects.filter((e) => e.id !== event.id) }),
};
