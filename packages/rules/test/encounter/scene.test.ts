import { describe, expect, it } from 'vitest';
import { expiresAt, type Stamp } from '../../src/index';
import { ALDRIC, BRENNA, CULTIST, Table } from './helpers';

function last(t: Table) {
  return t.events('challenge-resolved').at(-1)!;
}

describe('Interaction Challenges (personae-core-2011.txt "The Challenge", "Defense")', () => {
  it('a debate escalating to violence: Persuade + Competence against Resist + Power, then the sword', () => {
    const t = new Table();
    t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [6, 2], reactor: [7, 1] } });
    const c = last(t);
    expect(c).toMatchObject({ kind: 'interaction', skill: 'Persuade', reactorSkill: 'Resist' });
    expect(c.result.actor.modifiers).toEqual([{ value: 3, source: 'Competence' }]);
    expect(c.result.reactor.modifiers).toEqual([{ value: 2, source: 'Power' }]);
    // The cultist, losing the argument, draws steel and acts first.
    t.run({ type: 'escalate', actor: 'cultist', to: 'violent' });
    expect(t.now.combat!.turn.actor).toBe('cultist');
    // An Interaction Challenge is possible in a violent encounter too (to talk a foe down).
    t.run({ type: 'interact', actor: 'cultist', target: 'aldric', skill: 'Intimidate', attribute: 'stature', dice: { actor: [4], reactor: [3, 2] } });
    expect(last(t).result.actor.pool.explanation).toMatch(/Intimidate \(unskilled\) 1 die/);
  });

  it('the reactor may answer with another skill', () => {
    const t = new Table();
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', reactorSkill: 'Magic', dice: { actor: [6, 2], reactor: [7, 1, 1] } });
    expect(last(t).result.reactor.modifiers).toEqual([{ value: 2, source: 'Power' }]);
    expect(last(t).reactorSkill).toBe('Magic');
  });
});

describe('what a character knows (personae-core-2011.txt "What Your Character Knows")', () => {
  it('automatic if nothing was hidden; else one die + Knowledge against one die + Cunning', () => {
    const t = new Table();
    t.run({ type: 'inquire', actor: 'aldric', target: 'cultist', question: 'Whom does he serve?', hidden: false });
    expect(t.events('virtual-answered')).toHaveLength(1);
    expect(t.events('challenge-resolved')).toHaveLength(0);
    t.run({ type: 'inquire', actor: 'aldric', target: 'cultist', question: 'Where is the shrine?', hidden: true, dice: { actor: [6], reactor: [7] } });
    const c = last(t);
    expect(c.kind).toBe('virtual');
    expect(c.result.actor.pool.dice).toBe(1);
    expect(c.result.actor.modifiers).toEqual([{ value: 2, source: 'Knowledge' }]);
    expect(c.result.reactor.modifiers).toEqual([{ value: 2, source: 'Cunning' }]);
    // A skill for learning such things replaces the one die; the subterfuge skill replaces the other.
    t.run({ type: 'inquire', actor: 'aldric', target: 'cultist', question: 'Who else?', hidden: true, skill: 'Persuade', reactorSkill: 'Dagger', dice: { actor: [6, 5], reactor: [7, 2] } });
    expect(last(t).result.actor.pool.dice).toBe(2);
    expect(last(t).result.actor.modifiers).toEqual([{ value: 2, source: 'Knowledge' }]);
  });
});

describe('game time (personae-core-2011.txt "Space and Time", "Critical Success")', () => {
  it('sessions, days and scenes are counted; a new day or session starts a new scene', () => {
    const t = new Table();
    t.run({ type: 'begin-scene', actor: 'gm', title: 'The shrine' });
    expect(t.now.clock).toMatchObject({ session: 1, day: 1, scene: 2 });
    expect(t.now.title).toBe('The shrine');
    t.run({ type: 'begin-day', actor: 'gm' });
    expect(t.now.clock).toMatchObject({ session: 1, day: 2, scene: 3 });
    t.run({ type: 'begin-session', actor: 'gm' });
    expect(t.now.clock).toMatchObject({ session: 2, day: 2, scene: 4 });
  });

  it('ending the scene ends the encounter in it', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.run({ type: 'end-scene', actor: 'gm' });
    expect(t.now.clock).toMatchObject({ stage: 'scene', scene: 2 });
    expect(t.now.combat).toBeNull();
    expect(t.events('encounter-ended')).toHaveLength(1);
  });

  const stamp: Stamp = { session: 1, day: 1, scene: 2, encounter: 1 };
  it.each([
    ['end-of-encounter', { kind: 'encounter-ended', encounter: 1 }, true],
    ['end-of-encounter', { kind: 'encounter-ended', encounter: 2 }, false],
    ['next-scene', { kind: 'scene-ended', scene: 2 }, false],
    ['next-scene', { kind: 'scene-ended', scene: 3 }, true],
    ['next-day', { kind: 'day-began' }, true],
    ['next-day', { kind: 'scene-ended', scene: 9 }, false],
    ['next-session', { kind: 'session-began' }, true],
    ['next-session', { kind: 'day-began' }, false],
    ['until-spent', { kind: 'session-began' }, false],
  ] as const)('criticalsLast = %s: expiry at %o is %s', (last, moment, expected) => {
    expect(expiresAt(stamp, moment, last)).toBe(expected);
  });

  it('banked criticals expire on the clock of the table (option criticalsLast)', () => {
    const t = new Table([ALDRIC, CULTIST], { criticalsLast: 'end-of-encounter' });
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [10, 10, 1], reactor: [6, 3] } });
    expect(t.now.banks.aldric![0]!.count).toBe(1);
    t.run({ type: 'end-encounter', actor: 'gm' });
    expect(t.now.banks.aldric).toEqual([]);
    expect(t.events('criticals-expired').at(-1)!.reason).toMatch(/encounter 1 ended/);
    const s = new Table([ALDRIC, CULTIST], { criticalsLast: 'next-session' });
    s.toViolence('aldric');
    s.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [10, 10, 1], reactor: [6, 3] } });
    s.run({ type: 'begin-day', actor: 'gm' });
    expect(s.now.banks.aldric![0]!.count).toBe(1);
    s.run({ type: 'begin-session', actor: 'gm' });
    expect(s.now.banks.aldric).toEqual([]);
  });

  it('criticals may be turned in or given away as the table allows', () => {
    const t = new Table([{ ...ALDRIC, criticals: 2 }, BRENNA]);
    t.refuse({ type: 'give-criticals', actor: 'aldric', to: 'brenna', count: 1 }, 'criticals-not-transferable');
    t.run({ type: 'spend-criticals', actor: 'aldric', count: 1, purpose: 'the chandelier falls' });
    expect(t.now.banks.aldric![0]!.count).toBe(1);
    const v = new Table([{ ...ALDRIC, criticals: 2 }, BRENNA], {}, 'srd-v4');
    v.run({ type: 'give-criticals', actor: 'aldric', to: 'brenna', count: 2 });
    expect(v.now.banks.brenna!.reduce((s, e) => s + e.count, 0)).toBe(2);
  });

  it('characters join and leave the scene', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.run({ type: 'join', actor: 'gm', character: { ...BRENNA } });
    expect(t.now.combat!.order).toEqual(['aldric', 'cultist', 'brenna']);
    t.refuse({ type: 'join', actor: 'gm', character: { ...BRENNA } }, 'already-present');
    t.run({ type: 'leave', actor: 'gm', id: 'cultist' });
    expect(t.now.combat!.order).toEqual(['aldric', 'brenna']);
    t.refuse({ type: 'attack', actor: 'cultist', target: 'aldric' }, 'not-present');
  });
});

describe('changes at the table', () => {
  it('the GM may change the options mid-play; a bad option is refused by name', () => {
    const t = new Table();
    t.run({ type: 'configure', actor: 'gm', options: { preset: 'srd-v4', options: { actionOrder: 'initiative-skill' } } });
    expect(t.now.options).toMatchObject({ escalation: 'srd-v4', actionOrder: 'initiative-skill' });
    t.refuse({ type: 'configure', actor: 'aldric', options: { preset: 'core-2011', options: {} } }, 'gm-only');
  });

  it("a character's definition may be updated (an advancement); the encounter keeps its tally of hits", () => {
    const t = new Table([{ ...ALDRIC, hits: 4 }, CULTIST]);
    expect(t.character('aldric').status).toBe('injured');
    t.run({ type: 'update-character', actor: 'gm', character: { ...ALDRIC, hitsBeforeInjured: 5 } });
    expect(t.character('aldric')).toMatchObject({ hits: 4, status: 'unharmed' });
    expect(t.character('aldric').def.hitsBeforeInjured).toBe(5);
    t.refuse({ type: 'update-character', actor: 'gm', character: { ...ALDRIC, id: 'nobody' } }, 'unknown-character');
  });
});
