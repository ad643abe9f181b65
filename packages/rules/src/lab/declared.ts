import { seededDice } from '@personae/dice';
import { steerAfterDice } from '../encounter/actions/critical-spending';
import { EncounterCommandSchema, type EncounterCommand, type Spend } from '../encounter/commands';
import { decide } from '../encounter/decide';
import { RuleError } from '../encounter/errors';
import type { EncounterEvent } from '../encounter/events';
import type { EncounterState } from '../encounter/state';
import type { ChallengeOdds } from '../odds/types';
import { QUICK_LIMITS, oddsOfRolled } from './rejudge';

/**
 * The odds of an encounter action before it is taken: the action is decided once on the state as it is,
 * with dice that are thrown away, and the pools, modifiers, assistance, criticals spent before rolling,
 * rerolls, armor and steering the encounter built for its challenge are what the exact odds are computed
 * for (oddsOfRolled, exact unless the pools are past QUICK_LIMITS), with a critical kept to steer after
 * the dice when the command spends one so.
 * Nothing is changed: decide only returns events.
 */
export type DeclaredOdds =
  | {
      readonly ok: true;
      readonly odds: ChallengeOdds;
      readonly automatic: boolean;
      /** Criticals the command keeps to steer after the dice, if needed (counted in the odds). */
      readonly criticalSteer: number;
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

export function declaredChallengeOdds(state: EncounterState, command: unknown): DeclaredOdds {
  const parsed = EncounterCommandSchema.safeParse(command);
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'command'}: ${i.message}`).join('; ') };
  let events: EncounterEvent[];
  try {
    events = decide(state, parsed.data as EncounterCommand, seededDice(1));
  } catch (e) {
    if (e instanceof RuleError) return { ok: false, reason: e.message };
    throw e;
  }
  const resolved = events.find((e): e is Extract<EncounterEvent, { type: 'challenge-resolved' }> => e.type === 'challenge-resolved');
  if (!resolved || !state.now) return { ok: false, reason: 'this action rolls no challenge' };
  const { result } = resolved;
  if (result.kind === 'automatic') return { ok: true, odds: certain(), automatic: true, criticalSteer: 0, notes: resolved.notes };
  const spend = (parsed.data as { spend?: Spend }).spend;
  const criticalSteer = spend ? steerAfterDice(state.now, spend) : 0;
  return { ok: true, odds: oddsOfRolled(result, state.now.options, { criticalSteer, limits: QUICK_LIMITS }), automatic: false, criticalSteer, notes: resolved.notes };
}

function certain(): ChallengeOdds {
  return { success: 1, clearSuccess: 1, glancingSuccess: 0, failure: 0, fullTie: 0, criticals: [1], reactorCriticals: [1], method: 'exact' };
}
