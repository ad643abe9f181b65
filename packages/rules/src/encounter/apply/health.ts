import type { CharacterState } from '../state';
import { setCharacter, type Appliers } from './shared';

/** Hits, statuses, consciousness, stabilizing, death and the timing of recovery. */
export const HEALTH_EVENTS: Appliers<'hits-sustained' | 'hits-removed' | 'status-changed' | 'consciousness-changed' | 'stabilized' | 'died' | 'recovery-set'> = {
  'hits-sustained': (now, event) => setCharacter(now, event.target, { hits: event.after }),
  'hits-removed': (now, event) => setCharacter(now, event.target, { hits: event.after }),
  'status-changed': (now, event) => {
    // A stabilized character stays stable only while it stays Dying.
    return setCharacter(now, event.target, { status: event.to, stabilized: false });
  },
  'consciousness-changed': (now, event) => setCharacter(now, event.target, { conscious: event.conscious }),
  'stabilized': (now, event) => setCharacter(now, event.target, { stabilized: true }),
  'died': (now, event) => setCharacter(now, event.target, { status: 'dead', conscious: false }),
  'recovery-set': (now, event) => {
    const change: { -readonly [K in keyof CharacterState]?: CharacterState[K] } = {};
    if (event.recoverFromScene !== undefined) change.recoverFromScene = event.recoverFromScene;
    if (event.lastRecoveryScene !== undefined) change.lastRecoveryScene = event.lastRecoveryScene;
    if (event.outForScene !== undefined) change.outForScene = event.outForScene;
    if (event.relapse !== undefined) change.relapse = event.relapse;
    if (event.healLater !== undefined) change.healLater = event.healLater;
    return setCharacter(now, event.target, change);
  },
};
