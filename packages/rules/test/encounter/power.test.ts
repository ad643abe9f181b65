import { describe, expect, it } from 'vitest';
import { parseCombatant, type CombatantInput } from '../../src/index';
import { ALDRIC, BRENNA, CULTIST, Table } from './helpers';

const POWER = /Power Combat/;

const MAGE: CombatantInput = {
  ...BRENNA,
  powers: [
    ...(BRENNA.powers ?? []),
    { name: 'Spread Fireball', skill: 'Magic', kind: 'harm', hits: 1, targets: 2 },
    { name: 'Stone Skin', skill: 'Magic', duration: 'maintain', grants: { type: 'ignore-attacker-dice', dice: 1 } },
    { name: 'Haste', skill: 'Magic', duration: 'independent', grants: { type: 'bonus-dice', dice: 1 } },
    { name: 'Blessing', skill: 'Magic', duration: 'instant', grants: { type: 'bonus-result', amount: 2 } },
    { name: 'Ward', skill: 'Magic', duration: 'special', grants: { type: 'bonus-result', amount: 1, scope: { role: 'answer' } } },
    { name: 'Dominate', skill: 'Magic', duration: 'maintain', challenge: true },
    { name: 'Restore', skill: 'Magic', kind: 'heal', heals: { hits: 0, statuses: 1 } },
    { name: 'Counterspell', skill: 'Magic', activeDefense: true },
  ],
};

function last(t: Table) {
  return t.events('challenge-resolved').at(-1)!;
}

describe('Power Challenges (personae-core-2011.txt "Power Combat")', () => {
  it('a power that inflicts hits is Instant: Maintain or Independent is refused, naming the rule (personae-core-2011.txt "Duration / Duration Identifiers")', () => {
    for (const duration of ['maintain', 'independent'] as const) {
      expect(() => parseCombatant({ ...CULTIST, powers: [{ name: 'Fireball', skill: 'Magic', kind: 'harm', hits: 1, duration }] })).toThrow(/supernatural attack.*always Instant.*Duration \/ Duration Identifiers/);
    }
    expect(parseCombatant({ ...CULTIST, powers: [{ name: 'Ward', skill: 'Magic', kind: 'effect', duration: 'maintain' }] }).powers[0]!.duration).toBe('maintain');
  });

  it('Fireball: the supernatural skill + Power against Resist + Power; a success inflicts the hits of its description', () => {
    const t = new Table([MAGE, CULTIST]);
    t.toViolence('brenna');
    t.run({ type: 'power', actor: 'brenna', power: 'Fireball', target: 'cultist', dice: { actor: [8, 5, 1], reactor: [7, 2] } });
    const c = last(t);
    expect(c).toMatchObject({ kind: 'power', skill: 'Magic', reactorSkill: 'Resist' });
    expect(c.result.actor.modifiers).toEqual([{ value: 4, source: 'Power' }]);
    expect(c.result.reactor.modifiers).toEqual([{ value: 2, source: 'Power' }]);
    expect(t.character('cultist').hits).toBe(1);
  });

  it('no dodging or blocking a supernatural attack without an ability that allows it', () => {
    const t = new Table([MAGE, CULTIST]);
    t.toViolence('brenna');
    t.refuse({ type: 'power', actor: 'brenna', power: 'Fireball', target: 'cultist', defense: 'dodge' }, 'no-dodging-powers', POWER);
    t.refuse({ type: 'power', actor: 'brenna', power: 'Fireball', target: 'cultist', defense: 'block' }, 'no-blocking-powers', POWER);
    t.refuse({ type: 'power', actor: 'brenna', power: 'Fireball', target: 'cultist', defense: 'parry' }, 'defense-not-allowed', POWER);
    const nimble = { ...CULTIST, specialAbilities: [{ name: 'Uncanny Dodge', quality: true, allows: ['dodge-powers' as const] }] };
    const u = new Table([MAGE, nimble]);
    u.toViolence('brenna');
    u.run({ type: 'power', actor: 'brenna', power: 'Fireball', target: 'cultist', defense: 'dodge', dice: { actor: [8, 5, 1], reactor: [7, 2] } });
    expect(last(u)).toMatchObject({ reactorSkill: 'Dodge' });
    expect(last(u).result.reactor.modifiers).toEqual([{ value: 2, source: 'Cunning' }]);
  });

  it('an active defense with a power, declared with an action', () => {
    const t = new Table([MAGE, CULTIST]);
    t.toViolence('cultist');
    t.endTurn();
    t.run({ type: 'defend', actor: 'brenna', kind: 'power', power: 'Counterspell' });
    t.endTurn();
    t.run({ type: 'power', actor: 'cultist', power: 'Fireball', target: 'brenna', dice: { actor: [8, 5, 1], reactor: [9, 2, 1] } });
    expect(last(t).notes.join(' ')).toMatch(/defends actively with the power Counterspell/);
  });

  it('a power affects as many targets as it says: one actor against several', () => {
    const t = new Table([MAGE, CULTIST, { ...CULTIST, id: 'acolyte', name: 'Acolyte' }, ALDRIC]);
    t.toViolence('brenna');
    t.refuse({ type: 'power', actor: 'brenna', power: 'Fireball', targets: ['cultist', 'acolyte'] }, 'too-many-targets');
    t.run({ type: 'power', actor: 'brenna', power: 'Spread Fireball', targets: ['cultist', 'acolyte'], targetDice: { cultist: { actor: [9, 1, 1], reactor: [1, 1] }, acolyte: { actor: [9, 1, 1], reactor: [1, 1] } } });
    expect(t.events('hits-sustained').map((h) => h.target)).toEqual(['cultist', 'acolyte']);
  });

  it('a power that imposes an effect rather than hits: the resistor suffers it on a failed Resist', () => {
    const t = new Table([MAGE, CULTIST]);
    t.run({ type: 'escalate', actor: 'brenna', to: 'non-violent' });
    // Power Challenges can be issued in a non-violent encounter too.
    t.run({ type: 'power', actor: 'brenna', power: 'Dominate', target: 'cultist', dice: { actor: [8, 5, 1], reactor: [7, 2] } });
    expect(t.now.effects).toMatchObject([{ power: 'Dominate', targets: ['cultist'], duration: 'maintain' }]);
  });
});

describe('durations (personae-core-2011.txt "Duration / Duration Identifiers")', () => {
  it('Instant ends with the turn', () => {
    const t = new Table([MAGE, CULTIST]);
    t.toViolence('brenna');
    t.run({ type: 'power', actor: 'brenna', power: 'Blessing' });
    expect(t.now.effects).toHaveLength(1);
    t.endTurn();
    expect(t.now.effects).toHaveLength(0);
    expect(t.events('effect-ended').at(-1)!.reason).toMatch(/Instant/);
  });

  it('Maintain costs an action each round, or it ends at the end of the round', () => {
    const t = new Table([MAGE, CULTIST]);
    t.toViolence('brenna');
    t.run({ type: 'power', actor: 'brenna', power: 'Stone Skin' });
    const id = t.now.effects[0]!.id;
    t.refuse({ type: 'maintain', actor: 'brenna', effect: id }, 'already-maintained');
    t.endTurn();
    // Armor from the power works through the challenge engine.
    t.run({ type: 'attack', actor: 'cultist', target: 'brenna', defense: 'dodge', dice: { actor: [9, 4], reactor: [5, 3] } });
    expect(last(t).result.actor.ignored).toEqual([9]);
    t.endTurn();
    expect(t.now.effects).toHaveLength(1);
    t.run({ type: 'maintain', actor: 'brenna', effect: id });
    t.refuse({ type: 'attack', actor: 'brenna', target: 'cultist' }, 'action-used');
    t.endTurn();
    t.endTurn();
    expect(t.now.effects).toHaveLength(1);
    // Round 3: Brenna does not keep it up.
    t.endTurn();
    t.endTurn();
    expect(t.now.effects).toHaveLength(0);
    expect(t.events('effect-ended').at(-1)!.reason).toMatch(/not kept up/);
  });

  it('Independent lasts to the end of the encounter; Special until ended as described', () => {
    const t = new Table([MAGE, CULTIST]);
    t.toViolence('brenna');
    t.run({ type: 'power', actor: 'brenna', power: 'Haste' });
    t.endTurn();
    t.endTurn();
    expect(t.now.effects.map((e) => e.power)).toEqual(['Haste']);
    t.run({ type: 'power', actor: 'brenna', power: 'Ward' });
    // Haste's bonus die applies to Brenna's challenges while it lasts.
    t.endTurn();
    t.run({ type: 'attack', actor: 'cultist', target: 'brenna', defense: 'dodge', dice: { actor: [2, 1], reactor: [5, 3, 1] } });
    expect(last(t).result.reactor.pool.explanation).toMatch(/\+1 die Haste/);
    expect(last(t).result.reactor.modifiers).toContainEqual({ value: 1, source: 'Ward (power of Brenna)' });
    t.run({ type: 'end-encounter', actor: 'gm' });
    expect(t.now.effects.map((e) => e.power)).toEqual(['Ward']);
    t.run({ type: 'end-effect', actor: 'brenna', effect: t.now.effects[0]!.id });
    expect(t.now.effects).toEqual([]);
  });
});

describe('healing powers (personae-core-2011.txt "Healing and Recovery")', () => {
  it('remove hits, or roll back statuses; the new status takes effect at once', () => {
    const t = new Table([MAGE, { ...ALDRIC, hits: 5 }]);
    expect(t.character('aldric').status).toBe('wounded');
    t.run({ type: 'power', actor: 'brenna', power: 'Restore', target: 'aldric' });
    expect(t.character('aldric')).toMatchObject({ hits: 4, status: 'injured' });
    t.run({ type: 'power', actor: 'brenna', power: 'Mend', target: 'aldric' });
    expect(t.character('aldric')).toMatchObject({ hits: 2, status: 'unharmed' });
    t.run({ type: 'power', actor: 'brenna', power: 'Mend', target: 'aldric' });
    t.refuse({ type: 'power', actor: 'brenna', power: 'Mend', target: 'aldric' }, 'nothing-to-heal');
  });

  it('healing wakes an unconscious character; the dead stay dead unless the table allows (option raiseDead)', () => {
    const t = new Table([MAGE, { ...ALDRIC, hits: 6 }]);
    expect(t.character('aldric')).toMatchObject({ status: 'incapacitated', conscious: false });
    t.run({ type: 'power', actor: 'brenna', power: 'Restore', target: 'aldric' });
    expect(t.character('aldric')).toMatchObject({ status: 'wounded', conscious: true });
    const dead = new Table([MAGE, { ...ALDRIC, hits: 7 }, CULTIST]);
    dead.toViolence('brenna');
    dead.run({ type: 'end-encounter', actor: 'gm' });
    expect(dead.character('aldric').status).toBe('dead');
    dead.refuse({ type: 'power', actor: 'brenna', power: 'Restore', target: 'aldric' }, 'cannot-raise-dead', /Healing and Recovery/);
  });
});
