import { describe, expect, it } from 'vitest';
import { challengeOdds, declaredChallengeOdds, type EncounterEvent } from '../../src/index';
import { ALDRIC, CULTIST, Table } from '../encounter/helpers';

// The odds of an encounter action before it is taken: the pools the encounter itself would roll, with
// the choices the player made (criticals spent before rolling, assistants), and nothing changed.

const rich = { ...ALDRIC, criticals: 3 };
const persuade = { type: 'interact' as const, actor: 'aldric', target: 'cultist', skill: 'Persuade' };

function rolled(events: readonly EncounterEvent[]) {
  const r = events.find((e): e is Extract<EncounterEvent, { type: 'challenge-resolved' }> => e.type === 'challenge-resolved')!.result;
  return { actor: { dice: r.actor.pool.dice, modifier: r.actor.modifier, potentialThreshold: r.actor.potentialThreshold }, reactor: { dice: r.reactor.pool.dice, modifier: r.reactor.modifier, potentialThreshold: r.reactor.potentialThreshold } };
}

describe('odds of an encounter action before it is taken', () => {
  it('are the exact odds of the pools the encounter rolls when the action is taken, and change nothing', () => {
    const t = new Table([rich, CULTIST]);
    const before = t.state;
    const copy = JSON.stringify(before);
    const declared = declaredChallengeOdds(t.state, persuade);
    expect(t.state).toBe(before);
    expect(JSON.stringify(t.state)).toBe(copy);
    if (!declared.ok) throw new Error(declared.reason);
    const sides = rolled(t.run({ ...persuade, dice: { actor: [7, 2], reactor: [5, 4] } }));
    // Aldric persuades with Persuade, 2 dice, adding Competence 3 (personae-core-2011.txt "The Challenge").
    expect(sides.actor.dice).toBe(2);
    expect(sides.actor.modifier).toBe(3);
    expect(declared.odds).toEqual(challengeOdds(sides, t.now.options));
  });

  it('count criticals spent before rolling as +1 each to the result (personae-core-2011.txt "Critical Success")', () => {
    const t = new Table([rich, CULTIST]);
    const plain = declaredChallengeOdds(t.state, persuade);
    const spent = declaredChallengeOdds(t.state, { ...persuade, spend: { bonus: 2 } });
    if (!plain.ok || !spent.ok) throw new Error('expected odds');
    const sides = rolled(t.run({ ...persuade, dice: { actor: [7, 2], reactor: [5, 4] } }));
    expect(spent.odds).toEqual(challengeOdds({ ...sides, actor: { ...sides.actor, modifier: sides.actor.modifier + 2 } }, t.now.options));
    expect(spent.odds.success).toBeGreaterThan(plain.odds.success);
  });

  it('say why when the encounter would refuse the action, as it would say it', () => {
    const t = new Table([ALDRIC, CULTIST]);
    const poor = declaredChallengeOdds(t.state, { ...persuade, spend: { bonus: 2 } });
    expect(poor.ok).toBe(false);
    expect(!poor.ok && poor.reason).toMatch(/critical/i);
    const nobody = declaredChallengeOdds(t.state, { ...persuade, target: 'nobody' });
    expect(nobody.ok).toBe(false);
    const malformed = declaredChallengeOdds(t.state, { ...persuade, spend: { bonus: -1 } });
    expect(!malformed.ok && malformed.reason).toMatch(/spend\.bonus/);
  });
});
