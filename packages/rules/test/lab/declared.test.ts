import { describe, expect, it } from 'vitest';
import { givenDice } from '@personae/dice';
import { EncounterCommandSchema, challengeOdds, decide, declaredChallengeOdds, type EncounterEvent } from '../../src/index';
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

// Every die sequence of a small challenge decided by the encounter itself, each equally likely: the share
// of successes is the exact chance the declared odds must give, rerolls and armor included.
function counted(t: Table, command: Record<string, unknown>, length: number) {
  let success = 0;
  let clear = 0;
  const total = 10 ** length;
  for (let n = 0; n < total; n++) {
    const seq: number[] = [];
    for (let k = 0, x = n; k < length; k++, x = Math.floor(x / 10)) seq.push((x % 10) + 1);
    const events = decide(t.state, EncounterCommandSchema.parse(command), givenDice(seq));
    const r = events.find((e): e is Extract<EncounterEvent, { type: 'challenge-resolved' }> => e.type === 'challenge-resolved')!.result;
    if (r.outcome === 'success') success++;
    if (r.grade === 'clear') clear++;
  }
  return { success: success / total, clearSuccess: clear / total };
}

describe('odds of the choices made in play, counted out', () => {
  // Two dice of Longsword with a reroll of one die below the highest, against one die of Dodge behind
  // armor that ignores one attacking die (personae-core-2011.txt "What Special Abilities Can Do", "Armor").
  const swordsman = {
    ...ALDRIC,
    criticals: 2,
    skills: [{ name: 'Longsword', dice: 2, attribute: 'stature' as const, weapon: 'Longsword' }],
    specialAbilities: [{ name: 'Longsword Focus', effect: { type: 'reroll' as const, dice: 1, keep: 'better' as const, mayTouchHighest: false } }],
  };
  const armored = {
    ...CULTIST,
    skills: [...(CULTIST.skills ?? []), { name: 'Dodge', dice: 1, attribute: 'cunning' as const }],
    specialAbilities: [{ name: 'Chain Mail', quality: true, effect: { type: 'ignore-attacker-dice' as const, dice: 1 } }],
  };
  const attack = { type: 'attack' as const, actor: 'aldric', target: 'cultist', defense: 'dodge' as const };
  const violent = () => {
    const t = new Table([swordsman, armored], { fullTie: 'tie' });
    t.toViolence('aldric');
    return t;
  };

  /** The declared odds of the attack with a choice and without it. */
  const withAndWithout = (t: Table, chosen: Record<string, unknown>) => {
    const declared = declaredChallengeOdds(t.state, chosen);
    const plain = declaredChallengeOdds(t.state, attack);
    if (!declared.ok || !plain.ok) throw new Error('expected odds');
    return { with: declared.odds, without: plain.odds };
  };
  const expectCounted = (odds: { success: number; clearSuccess: number }, count: { success: number; clearSuccess: number }) => {
    expect(odds.success).toBeCloseTo(count.success, 12);
    expect(odds.clearSuccess).toBeCloseTo(count.clearSuccess, 12);
  };

  it('count the reroll and the armor the encounter applies, exactly', () => {
    const t = violent();
    const focus = { ...attack, abilities: ['Longsword Focus'] };
    const odds = withAndWithout(t, focus);
    expectCounted(odds.with, counted(t, focus, 4));
    expectCounted(odds.without, counted(t, attack, 3));
    // The armor sets aside the highest die, the reroll lifts the lower one: the choice is worth something.
    expect(odds.with.success).toBeGreaterThan(odds.without.success);
  });

  it('count a critical kept to steer a failure after the dice: failures and full ties become glancing successes (personae-v4-srd-playing.txt "Critical Success")', () => {
    const t = violent();
    const steered = { ...attack, spend: { steer: 1 as const } };
    const odds = withAndWithout(t, steered);
    expectCounted(odds.with, counted(t, steered, 3));
    expect(odds.with.clearSuccess).toBeCloseTo(odds.without.clearSuccess, 12);
    expect(odds.with.success).toBeGreaterThan(odds.without.success);
  });
});
