import type { ChallengeResult } from '../../challenge';
import type { SuccessTally } from '../state';
import { setCharacter, type Appliers } from './shared';

/** Challenges resolved, what they wear and tally, and uses counted against a limit. */
export const CHALLENGE_EVENTS: Appliers<'challenge-resolved' | 'resolve-worn' | 'virtual-answered' | 'usage-counted' | 'follow-up-pending' | 'follow-up-ended' | 'roll-tallied'> = {
  'challenge-resolved': (now, event) => {
    const c = now.characters[event.actor];
    const lastChallenge = {
      kind: event.kind,
      actor: event.actor,
      reactor: event.reactor,
      skill: event.skill,
      reactorSkill: event.reactorSkill,
      encounter: now.clock.stage === 'scene' ? null : now.clock.encounter,
      result: event.result,
    };
    const next = { ...now, lastChallenge };
    return c ? setCharacter(next, event.actor, { tally: counted(c.tally, event.result, now.options.developmentCountsOnlyClear) }) : next;
  },
  'resolve-worn': (now, event) => setCharacter(now, event.target, { resolve: { encounter: event.encounter, worn: event.after, size: event.size, attribute: event.attribute, yielded: event.yielded } }),
  'virtual-answered': (now) => now,
  'usage-counted': (now, event) => ({ ...now, usage: { ...now.usage, [event.key]: (now.usage[event.key] ?? 0) + 1 } }),
  'follow-up-pending': (now, e) => ({
    ...now,
    followUp: { kind: e.kind, ability: e.ability, owner: e.owner, actor: e.actor, reactor: e.reactor, ...(e.reroll ? { reroll: e.reroll } : {}) },
  }),
  'follow-up-ended': (now) => ({ ...now, followUp: null }),
  'roll-tallied': (now, event) => {
    const c = now.characters[event.actor];
    return c ? setCharacter(now, event.actor, { tally: counted(c.tally, event, now.options.developmentCountsOnlyClear) }) : now;
  },
};

/**
 * personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering": "by default, characters
 * may only mark clear successes when tracking successes and failures towards the achievement of
 * development points" (option developmentCountsOnlyClear). A tie is neither.
 */
function counted(tally: SuccessTally, result: Pick<ChallengeResult, 'outcome' | 'grade'>, onlyClear: boolean): SuccessTally {
  if (result.outcome === 'failure') return { ...tally, failures: tally.failures + 1 };
  if (result.outcome !== 'success') return tally;
  if (result.grade === 'glancing' && onlyClear) return { ...tally, uncounted: tally.uncounted + 1 };
  return { ...tally, successes: tally.successes + 1 };
}
