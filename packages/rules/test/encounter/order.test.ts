import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { ALDRIC, BRENNA, CULTIST, Table } from './helpers';

const ORDER = /The Action Order, and Actions/;

describe('escalation (personae-core-2011.txt "Escalation"; personae-v4-srd-playing.txt "The Challenge")', () => {
  it('core-2011: scene -> non-violent encounter -> violent encounter, one step at a time by default', () => {
    const t = new Table();
    expect(t.now.clock.stage).toBe('scene');
    t.refuse({ type: 'escalate', actor: 'aldric', to: 'violent' }, 'escalation-order', /Escalation/);
    t.refuse({ type: 'escalate', actor: 'aldric', to: 'hostile' }, 'unknown-stage');
    t.run({ type: 'escalate', actor: 'cultist', to: 'non-violent' });
    expect(t.now.clock).toMatchObject({ stage: 'non-violent', encounter: 1 });
    t.refuse({ type: 'escalate', actor: 'aldric', to: 'non-violent' }, 'not-an-escalation');
    t.run({ type: 'escalate', actor: 'aldric', to: 'violent' });
    expect(t.now.clock.stage).toBe('violent');
  });

  it('srd-v4: an encounter escalates as it makes sense in the fiction, the hostile step included or not (personae-v4-srd-playing.txt "The Challenge")', () => {
    const t = new Table([ALDRIC, CULTIST], {}, 'srd-v4');
    expect(t.now.options.escalationMaySkip).toBe(true);
    t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    t.run({ type: 'escalate', actor: 'cultist', to: 'violent' });
    expect(t.now.clock.stage).toBe('violent');
  });

  it('srd-v4 with escalationMaySkip = false: non-violent -> hostile -> violent; encounters can be de-escalated', () => {
    const t = new Table([ALDRIC, CULTIST], { escalationMaySkip: false }, 'srd-v4');
    t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    t.refuse({ type: 'escalate', actor: 'aldric', to: 'violent' }, 'escalation-order', /personae-v4-srd-playing/);
    t.run({ type: 'escalate', actor: 'aldric', to: 'hostile' });
    t.run({ type: 'escalate', actor: 'cultist', to: 'violent' });
    expect(t.now.combat!.order[0]).toBe('cultist');
    t.run({ type: 'de-escalate', actor: 'gm', to: 'non-violent' });
    expect(t.now.clock.stage).toBe('non-violent');
    expect(t.now.combat).toBeNull();
    const core = new Table();
    core.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    core.refuse({ type: 'de-escalate', actor: 'gm', to: 'scene' }, 'de-escalation');
  });

  it('option escalationMaySkip lets a scene turn violent at once (an ambush)', () => {
    const t = new Table([ALDRIC, CULTIST], { escalationMaySkip: true });
    t.run({ type: 'escalate', actor: 'cultist', to: 'violent' });
    expect(t.now.combat!.turn.actor).toBe('cultist');
  });

  it('an attack needs a violent encounter', () => {
    const t = new Table();
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist' }, 'not-violent', /Escalation/);
  });
});

describe('the action order (personae-core-2011.txt "The Action Order, and Actions")', () => {
  it('seating order, going round the table from the one who escalated', () => {
    const t = new Table([ALDRIC, BRENNA, CULTIST]);
    t.toViolence('brenna');
    expect(t.now.combat!.order).toEqual(['brenna', 'cultist', 'aldric']);
    expect(t.now.combat!.turn).toMatchObject({ actor: 'brenna' });
    expect(t.now.combat!.round).toBe(1);
  });

  it('seats, when given, set the seating order', () => {
    const t = new Table([{ ...ALDRIC, seat: 3 }, { ...BRENNA, seat: 1 }, { ...CULTIST, seat: 2 }]);
    t.run({ type: 'escalate', actor: 'gm', to: 'non-violent' });
    t.run({ type: 'escalate', actor: 'gm', to: 'violent' });
    expect(t.now.combat!.order).toEqual(['brenna', 'cultist', 'aldric']);
  });

  it('an Initiative skill roll: highest first, ties broken by further dice, a full tie by seat; the escalator still first', () => {
    const quick = (c: typeof ALDRIC, dice: number) => ({ ...c, skills: [...(c.skills ?? []), { name: 'Initiative', dice, attribute: 'cunning' as const }] });
    const t = new Table([quick(ALDRIC, 2), quick(BRENNA, 2), quick(CULTIST, 2), { ...CULTIST, id: 'acolyte', name: 'Acolyte' }], { actionOrder: 'initiative-skill' });
    // Cunning: Aldric 2, Brenna 3, Cultist 2, Acolyte 2 (unskilled: one die).
    t.toViolence('acolyte', { orderDice: { aldric: [7, 5], brenna: [6, 1], cultist: [7, 5], acolyte: [1] } });
    // Brenna's 6 + 3 = 9 ties Aldric's 7 + 2 = 9; the second dice decide (1 + 3 = 4 against 5 + 2 = 7).
    // Aldric and the Cultist tie on every die: the earlier seat goes first.
    expect(t.now.combat!.order).toEqual(['acolyte', 'aldric', 'cultist', 'brenna']);
    const set = t.events('order-set')[0]!;
    expect(set.rolls.find((r) => r.id === 'brenna')).toMatchObject({ dice: [6, 1], modifier: 3 });
    expect(set.explanation.join('\n')).toMatch(/Acolyte escalated the encounter and acts first/);
  });

  it('each side\'s chosen skill (declared-skill), rolled from the dice source when not entered', () => {
    const t = new Table([ALDRIC, CULTIST], { actionOrder: 'declared-skill' });
    t.toViolence('gm', { orderSkills: { aldric: 'Persuade', cultist: 'Magic' } }, seededDice(4));
    const set = t.events('order-set')[0]!;
    expect(set.rolls.map((r) => r.skill)).toEqual(['Persuade', 'Magic']);
    expect(set.rolls.map((r) => r.dice.length)).toEqual([2, 3]);
  });

  it('the GM may override the order', () => {
    const t = new Table([ALDRIC, BRENNA, CULTIST]);
    t.toViolence('aldric');
    t.refuse({ type: 'set-order', actor: 'aldric', order: ['cultist', 'aldric', 'brenna'] }, 'gm-only');
    t.refuse({ type: 'set-order', actor: 'gm', order: ['cultist', 'aldric'] }, 'order-incomplete');
    t.run({ type: 'set-order', actor: 'gm', order: ['cultist', 'aldric', 'brenna'] });
    expect(t.now.combat!.order).toEqual(['cultist', 'aldric', 'brenna']);
    expect(t.now.combat!.turn.actor).toBe('aldric');
    t.endTurn();
    expect(t.now.combat!.turn.actor).toBe('brenna');
    t.endTurn();
    expect(t.now.combat).toMatchObject({ round: 2, turn: { actor: 'cultist' } });
  });

  it('rounds: when everyone has acted the order starts again', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.endTurn();
    t.endTurn();
    expect(t.now.combat).toMatchObject({ round: 2, turn: { actor: 'aldric' } });
    expect(t.events('round-ended')).toHaveLength(1);
  });

  it('each turn a move and an action; the action may be a second move', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.run({ type: 'move', actor: 'aldric' });
    t.run({ type: 'move', actor: 'aldric' });
    expect(t.now.combat!.turn).toMatchObject({ moves: 2, actionUsed: true });
    t.refuse({ type: 'move', actor: 'aldric' }, 'no-moves-left', ORDER);
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist' }, 'action-used', ORDER);
    t.endTurn();
    t.run({ type: 'attack', actor: 'cultist', target: 'aldric', dice: { actor: [5, 4], reactor: [6, 2] } });
    t.run({ type: 'move', actor: 'cultist' });
    t.refuse({ type: 'move', actor: 'cultist' }, 'no-moves-left');
  });

  it('acting out of turn is refused with the rule named, and the state is unchanged', () => {
    const t = new Table();
    t.toViolence('aldric');
    const e = t.refuse({ type: 'attack', actor: 'cultist', target: 'aldric' }, 'out-of-turn', ORDER);
    expect(e.message).toMatch(/Aldric's turn/);
    t.refuse({ type: 'end-turn', actor: 'cultist' }, 'out-of-turn');
  });

  it('only the GM issues GM commands, and commands name a known character', () => {
    const t = new Table();
    t.refuse({ type: 'end-scene', actor: 'aldric' }, 'gm-only');
    t.refuse({ type: 'escalate', actor: 'nobody', to: 'non-violent' }, 'unknown-character');
  });
});
