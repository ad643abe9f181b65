import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import type { CombatantInput } from '../../src/index';
import { ALDRIC, CULTIST, Table } from './helpers';

// Obstacles and hazards as identities with their own pool (personae-core-2011.txt "Obstacles").

/** The barred door: a pool of three dice + Stature 2. */
const DOOR: CombatantInput = {
  id: 'door',
  name: 'Barred door',
  attributes: { competence: 0, prowess: 0, cunning: 0, power: 0, knowledge: 0, stature: 2 },
  skills: [{ name: 'Sturdiness', dice: 3, attribute: 'stature' }],
  obstacle: { kind: 'obstacle', health: 2 },
};

/** The thunderstorm: a hazard that strikes with lightning, Storm three dice + Power 3. */
const STORM: CombatantInput = {
  id: 'storm',
  name: 'Thunderstorm',
  attributes: { competence: 0, prowess: 0, cunning: 0, power: 3, knowledge: 0, stature: 0 },
  skills: [{ name: 'Storm', dice: 3, attribute: 'power' }],
  powers: [{ name: 'Lightning', skill: 'Storm', kind: 'harm', hits: 1 }],
  obstacle: { kind: 'hazard', hidden: true },
};

function fight(options: Record<string, unknown> = {}): Table {
  const t = new Table([ALDRIC, CULTIST, DOOR, STORM], options);
  t.toViolence('aldric', {}, seededDice(5));
  return t;
}

describe('obstacles and hazards as identities (personae-core-2011.txt "Obstacles")', () => {
  it('take no turn in the action order', () => {
    const t = fight();
    expect([...t.now.combat!.order].sort()).toEqual(['aldric', 'cultist']);
  });

  it('an attack on an obstacle is answered with its pool, not a defence', () => {
    const t = fight();
    t.turnOf('aldric');
    // Aldric 9, 4, 2 + Stature 3 = 12 against the door's 7, 6, 1 + Stature 2 = 9.
    t.run({ type: 'attack', actor: 'aldric', target: 'door', dice: { actor: [9, 4, 2], reactor: [7, 6, 1] } });
    const c = t.events('challenge-resolved').at(-1)!;
    expect(c).toMatchObject({ reactor: 'door', reactorSkill: 'Sturdiness' });
    expect(c.result.reactor.modifiers).toEqual([{ value: 2, source: 'Stature' }]);
    expect(c.result.outcome).toBe('success');
    expect(c.notes.join(' ')).toMatch(/Barred door, an obstacle \(personae-core-2011.txt "Obstacles"\), answers with Sturdiness: 3 dice \+ Stature/);
  });

  it('option obstacleHealth = none (the default): an obstacle sustains no hits, and the log says so', () => {
    const t = fight();
    expect(t.now.options.obstacleHealth).toBe('none');
    t.turnOf('aldric');
    const events = t.run({ type: 'attack', actor: 'aldric', target: 'door', dice: { actor: [9, 4, 2], reactor: [7, 6, 1] } });
    expect(events.some((e) => e.type === 'hits-sustained')).toBe(false);
    expect(t.character('door').hits).toBe(0);
    expect(t.events('challenge-resolved').at(-1)!.notes.join(' ')).toMatch(/sustains no hits \(option obstacleHealth = none\)/);
  });

  it('option obstacleHealth = hits: its health in hits overcomes it, and then it does nothing more', () => {
    const t = fight({ obstacleHealth: 'hits', injuryTiming: 'immediate' });
    t.turnOf('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'door', dice: { actor: [9, 4, 2], reactor: [7, 6, 1] } });
    expect(t.character('door').hits).toBe(1);
    expect(t.character('door').status).toBe('unharmed');
    t.endTurn();
    t.turnOf('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'door', dice: { actor: [9, 4, 2], reactor: [7, 6, 1] } });
    expect(t.character('door')).toMatchObject({ hits: 2, status: 'incapacitated', conscious: false });
    t.refuse({ type: 'interact', actor: 'door', target: 'aldric', skill: 'Sturdiness' }, 'cannot-act');
  });

  it('without health it sustains none even under obstacleHealth = hits', () => {
    const t = fight({ obstacleHealth: 'hits' });
    t.turnOf('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'storm', dice: { actor: [9, 4, 2], reactor: [1, 1, 1] } });
    expect(t.character('storm').hits).toBe(0);
    expect(t.events('challenge-resolved').at(-1)!.notes.join(' ')).toMatch(/no health given/);
  });

  it('a hazard issues a challenge whenever the GM has it act: out of turn, spending nobody\'s action, banking no criticals', () => {
    const t = fight();
    t.turnOf('cultist');
    // Lightning: 10, 10, 4 + Power 3 against Aldric's Resist 2, 1 + Power 1.
    const events = t.run({ type: 'power', actor: 'storm', power: 'Lightning', target: 'aldric', dice: { actor: [10, 10, 4], reactor: [2, 1] } });
    expect(events.find((e) => e.type === 'challenge-resolved')).toMatchObject({ kind: 'power', actor: 'storm', reactor: 'aldric' });
    expect(events.find((e) => e.type === 'hits-sustained')).toMatchObject({ target: 'aldric', after: 1 });
    const banked = events.find((e) => e.type === 'criticals-banked')!;
    expect(banked).toMatchObject({ earnedBy: 'storm', count: 1, lost: 1 });
    if (banked.type === 'criticals-banked') expect(banked.withheld).toMatch(/a hazard is no character/);
    expect(t.now.banks.gm ?? []).toEqual([]);
    expect(t.now.combat!.turn).toMatchObject({ actor: 'cultist', actionUsed: false });
  });

  it('an interaction aimed at an obstacle is answered with its pool', () => {
    const t = new Table([ALDRIC, DOOR]);
    t.run({ type: 'interact', actor: 'aldric', target: 'door', skill: 'Persuade', dice: { actor: [5, 4], reactor: [6, 2, 1] } });
    expect(t.events('challenge-resolved').at(-1)).toMatchObject({ reactor: 'door', reactorSkill: 'Sturdiness' });
  });

  it('an obstacle without a pool is refused, naming the rule, and nothing changes', () => {
    const t = new Table([ALDRIC, CULTIST]);
    const e = t.refuse({ type: 'join', actor: 'gm', character: { id: 'wall', name: 'Wall', obstacle: {} } }, 'obstacle-without-pool', /"Obstacles"/);
    expect(e.field).toBe('character.skills');
  });
});
