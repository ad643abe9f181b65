import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import type { CombatantInput } from '../../src/index';
import { ALDRIC, BRENNA, CULTIST, Table } from './helpers';

const DEFENSE = /Passive vs. Active Defense/;
const SCOPE = /Scope of Special Abilities/;

/** A heavy fighter: a claymore (two-handed: heavy), a heavy shield, a bow, and armor. */
const GARETH: CombatantInput = {
  id: 'gareth',
  name: 'Gareth',
  attributes: { competence: 2, prowess: 2, cunning: 1, power: 1, knowledge: 1, stature: 4 },
  skills: [
    { name: 'Claymore', dice: 3, attribute: 'stature', weapon: 'Claymore' },
    { name: 'Longbow', dice: 2, attribute: 'cunning', weapon: 'Longbow' },
    { name: 'Tower Shield', dice: 2, attribute: 'stature', shield: 'Tower Shield' },
  ],
  weapons: [
    { name: 'Claymore', size: 'two-handed' },
    { name: 'Longbow', size: 'two-handed', range: 'ranged', group: 'bows' },
  ],
  shields: [{ name: 'Tower Shield', weight: 'heavy' }],
};

function lastChallenge(t: Table) {
  return t.events('challenge-resolved').at(-1)!;
}

describe('Attack Challenges (personae-core-2011.txt "Physical Combat", "Weapons", "Defense")', () => {
  it('weapon skill + Stature for hand-to-hand against Dodge + Cunning: the cultist sword fight', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [8, 4, 2], reactor: [6, 3] } });
    const c = lastChallenge(t);
    expect(c.skill).toBe('Longsword');
    expect(c.result.actor.modifiers).toEqual([{ value: 3, source: 'Stature' }]);
    expect(c.reactorSkill).toBe('Dodge');
    expect(c.result.reactor.modifiers).toEqual([{ value: 2, source: 'Cunning' }]);
    expect(c.result.outcome).toBe('success');
    expect(t.character('cultist').hits).toBe(1);
    expect(c.result.explanation.join('\n')).toMatch(/Pair #1: 8\+3 = 11 against 6\+2 = 8/);
  });

  it('Block + Stature is the other passive defense; by default the defender takes the better of the two', () => {
    const t = new Table([ALDRIC, GARETH]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'gareth', dice: { actor: [5, 4, 2], reactor: [6, 3] } });
    expect(lastChallenge(t)).toMatchObject({ reactorSkill: 'Block' });
    expect(lastChallenge(t).result.reactor.modifiers).toEqual([{ value: 4, source: 'Stature' }]);
  });

  it('ranged attacks add Cunning (option attackAttribute = skill uses the skill\'s own attribute)', () => {
    const t = new Table([GARETH, CULTIST]);
    t.toViolence('gareth');
    t.run({ type: 'attack', actor: 'gareth', target: 'cultist', weapon: 'Longbow', defense: 'dodge', dice: { actor: [5, 4], reactor: [6, 3] } });
    expect(lastChallenge(t).result.actor.modifiers).toEqual([{ value: 1, source: 'Cunning' }]);
  });

  it('unarmed attacks are small bludgeons and every weapon inflicts at least one hit', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', weapon: 'unarmed', defense: 'dodge', dice: { actor: [9], reactor: [1, 1] } });
    const c = lastChallenge(t);
    expect(c.skill).toBe('Unarmed');
    expect(c.result.actor.pool.explanation).toMatch(/Unarmed \(unskilled\) 1 die/);
    expect(t.events('hits-sustained').at(-1)).toMatchObject({ incoming: 1, sources: ['1 unarmed strike'] });
  });

  it('a parry (declared ahead with an action) with a weapon skill: like against like', () => {
    const t = new Table([ALDRIC, CULTIST]);
    t.toViolence('cultist');
    t.run({ type: 'defend', actor: 'cultist', kind: 'parry' });
    t.refuse({ type: 'attack', actor: 'cultist', target: 'aldric' }, 'action-used');
    t.endTurn();
    // A one-handed longsword and a small dagger are both light.
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', dice: { actor: [5, 4, 2], reactor: [6, 3] } });
    expect(lastChallenge(t)).toMatchObject({ reactorSkill: 'Dagger' });
    expect(lastChallenge(t).notes.join(' ')).toMatch(/parries with Dagger \(light against light\)/);
  });

  it('an illegal parry: a light weapon cannot parry a heavy one; nor may one parry without declaring it', () => {
    const t = new Table([GARETH, CULTIST]);
    t.toViolence('cultist');
    t.refuse({ type: 'defend', actor: 'cultist', kind: 'block' }, 'unknown-skill');
    t.run({ type: 'defend', actor: 'cultist', kind: 'parry', skill: 'Dagger' });
    t.endTurn();
    const e = t.refuse({ type: 'attack', actor: 'gareth', target: 'cultist', weapon: 'Claymore', defense: 'parry' }, 'illegal-parry', DEFENSE);
    expect(e.message).toMatch(/like against like/);
    const u = new Table([ALDRIC, GARETH]);
    u.toViolence('aldric');
    u.refuse({ type: 'attack', actor: 'aldric', target: 'gareth', defense: 'parry' }, 'active-defense-not-declared', DEFENSE);
  });

  it('an ability may allow parrying any weight, or defending without declaring an action', () => {
    const duelist = { ...CULTIST, specialAbilities: [{ name: 'Riposte', quality: true, allows: ['parry-any-weight' as const, 'autonomic-defense' as const] }] };
    const t = new Table([GARETH, duelist]);
    t.toViolence('gareth');
    t.run({ type: 'attack', actor: 'gareth', target: 'cultist', weapon: 'Claymore', defense: 'parry', dice: { actor: [5, 4, 2], reactor: [6, 3] } });
    expect(lastChallenge(t).reactorSkill).toBe('Dagger');
  });

  it('shields: a light shield blocks only light weapons, a heavy shield blocks any', () => {
    const t = new Table([GARETH, BRENNA]);
    t.toViolence('brenna');
    t.run({ type: 'defend', actor: 'brenna', kind: 'block' });
    t.endTurn();
    t.refuse({ type: 'attack', actor: 'gareth', target: 'brenna', weapon: 'Claymore' }, 'illegal-block', DEFENSE);
    const u = new Table([ALDRIC, GARETH]);
    u.toViolence('gareth');
    u.run({ type: 'defend', actor: 'gareth', kind: 'block' });
    u.endTurn();
    u.run({ type: 'attack', actor: 'aldric', target: 'gareth', dice: { actor: [5, 4, 2], reactor: [6, 3] } });
    expect(lastChallenge(u)).toMatchObject({ reactorSkill: 'Tower Shield' });
    expect(lastChallenge(u).notes.join(' ')).toMatch(/heavy shield Tower Shield/);
  });

  it('Resist is no answer to an attack', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'resist' }, 'defense-not-allowed');
  });

  it('armor ignores attacker dice after rerolls, through the same challenge code (personae-core-2011.txt "Armor")', () => {
    const armored = { ...CULTIST, specialAbilities: [{ name: 'Chain Mail', quality: true, effect: { type: 'ignore-attacker-dice' as const, dice: 1 } }] };
    const t = new Table([ALDRIC, armored]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [9, 4, 2], reactor: [6, 3] } });
    const r = lastChallenge(t).result;
    expect(r.actor.ignored).toEqual([9]);
    expect(r.actor.dice).toEqual([4, 2]);
    expect(r.outcome).toBe('failure');
  });
});

describe('special abilities in encounters (personae-core-2011.txt "Scope of Special Abilities")', () => {
  const skilled: CombatantInput = {
    ...ALDRIC,
    specialAbilities: [
      { name: 'Longsword Training', effect: { type: 'bonus-result', amount: 1, scope: { skills: ['Longsword'], role: 'both' } } },
      { name: 'Expert Longsword', effect: { type: 'bonus-dice', dice: 1, scope: { skills: ['Longsword'], role: 'both' } } },
      { name: 'Longsword Focus', effect: { type: 'reroll', dice: 1, keep: 'second', mayTouchHighest: false } },
      { name: 'Quick Reflexes', effect: { type: 'bonus-result', amount: 1, scope: { skills: ['Dodge'], role: 'answer' } } },
      { name: 'Sidestep', effect: { type: 'bonus-dice', dice: 1, scope: { skills: ['Dodge'], role: 'answer' } } },
      { name: 'Iron Will', quality: true, effect: { type: 'bonus-result', amount: 1, scope: { challenges: ['power', 'interaction'], role: 'answer' } } },
      { name: 'Brutal Longsword Strike', quality: true, effect: { type: 'extra-hits', hits: 1, scope: { skills: ['Longsword'], role: 'issue' } } },
    ],
  };

  it('one special ability a turn; a second is refused and the state is unchanged', () => {
    const t = new Table([skilled, CULTIST]);
    t.toViolence('aldric');
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', abilities: ['Longsword Training', 'Expert Longsword'] }, 'second-special-ability', SCOPE);
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', abilities: ['Expert Longsword'], defense: 'dodge', dice: { actor: [7, 6, 2, 1], reactor: [6, 3] } });
    const r = lastChallenge(t).result;
    expect(r.actor.pool.dice).toBe(4);
    // Qualities apply besides the chosen ability: Brutal Longsword Strike adds a hit.
    expect(t.events('hits-sustained').at(-1)).toMatchObject({ incoming: 2 });
    expect(t.events('ability-used').at(-1)).toMatchObject({ actor: 'aldric', ability: 'Expert Longsword' });
    t.run({ type: 'move', actor: 'aldric' });
    t.endTurn();
    // Answering on the cultist's turn counts against that turn: one ability, and the same one again is fine.
    t.run({ type: 'attack', actor: 'cultist', target: 'aldric', defense: 'dodge', reactorAbilities: ['Quick Reflexes'], dice: { actor: [2, 1], reactor: [3, 2] } });
    expect(lastChallenge(t).result.reactor.modifiers).toContainEqual({ value: 1, source: 'Quick Reflexes' });
    t.refuse({ type: 'attack', actor: 'cultist', target: 'aldric', defense: 'dodge', reactorAbilities: ['Sidestep'] }, 'second-special-ability', SCOPE);
  });

  it('a Conditional ability limited to once a day counts its uses on the clock of the table', () => {
    const rage = { ...ALDRIC, specialAbilities: [{ name: 'Battle Fury', effect: { type: 'bonus-dice' as const, dice: 2 }, limit: { times: 1, per: 'day' as const } }] };
    const t = new Table([rage, CULTIST]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', abilities: ['Battle Fury'], defense: 'dodge' }, seededDice(5));
    t.run({ type: 'end-encounter', actor: 'gm' });
    t.run({ type: 'begin-scene', actor: 'gm' });
    t.refuse({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Battle Fury'] }, 'ability-limit', /Special Ability Identifiers/);
    t.run({ type: 'begin-day', actor: 'gm' });
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Battle Fury'] }, seededDice(6));
  });

  it('an ability outside its scope is refused; an unknown one too', () => {
    const t = new Table([skilled, CULTIST]);
    t.toViolence('aldric');
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', abilities: ['Iron Will'] }, 'ability-not-applicable');
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', abilities: ['Flying'] }, 'unknown-ability');
  });

  it('a reroll ability takes the second result and leaves the highest die alone by default', () => {
    const t = new Table([skilled, CULTIST]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', abilities: ['Longsword Focus'], defense: 'dodge', dice: { actor: [7, 4, 1], reactor: [6, 3], extra: [5] } });
    const r = lastChallenge(t).result;
    expect(r.actor.rerolls).toEqual([{ source: 'Longsword Focus', kind: 'own', position: 3, old: 1, new: 5, kept: 5 }]);
    expect(r.actor.dice).toEqual([7, 5, 4]);
  });

  it('outside encounters the one-a-turn limit does not apply', () => {
    const t = new Table([{ ...ALDRIC, specialAbilities: [{ name: 'Silver Tongue', effect: { type: 'bonus-result', amount: 1 } }, { name: 'Charm', effect: { type: 'bonus-dice', dice: 1 } }] }, CULTIST]);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Silver Tongue', 'Charm'], dice: { actor: [5, 4, 3], reactor: [6, 2] } });
    expect(lastChallenge(t).result.actor.pool.dice).toBe(3);
  });
});

describe('criticals in the fight (personae-core-2011.txt "Critical Success")', () => {
  it('every unadjusted 10 beyond the first is a critical, banked at once', () => {
    const t = new Table();
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [10, 10, 10], reactor: [6, 3] } });
    expect(t.now.banks.aldric!.reduce((s, e) => s + e.count, 0)).toBe(2);
  });

  it('criticals buy extra hits and automatic successes', () => {
    const t = new Table([{ ...ALDRIC, criticals: 3 }, CULTIST]);
    t.toViolence('aldric');
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', spend: { extraHits: 4 } }, 'not-enough-criticals');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', spend: { extraHits: 2 }, dice: { actor: [9, 4, 2], reactor: [6, 3] } });
    expect(t.events('hits-sustained').at(-1)).toMatchObject({ incoming: 3, after: 3 });
    t.endTurn();
    t.endTurn();
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', spend: { automaticSuccess: true } });
    expect(lastChallenge(t).result.kind).toBe('automatic');
    expect(t.now.banks.aldric).toEqual([]);
  });

  it("the GM's characters earn criticals only into a common pool, when the table allows (option gmCriticals)", () => {
    for (const gmCriticals of ['none', 'common-pool'] as const) {
      const t = new Table([ALDRIC, CULTIST], { gmCriticals });
      t.toViolence('cultist');
      t.run({ type: 'attack', actor: 'cultist', target: 'aldric', defense: 'dodge', dice: { actor: [10, 10], reactor: [6, 3] } });
      expect(t.now.banks.gm?.[0]?.count).toBe(gmCriticals === 'none' ? undefined : 1);
      expect(t.now.banks.cultist).toBeUndefined();
    }
  });

  it('option criticalBankCap = potential-threshold caps the bank; the rest are lost', () => {
    const t = new Table([{ ...ALDRIC, criticals: 3 }, CULTIST], { criticalBankCap: 'potential-threshold' });
    // Aldric's attributes sum to 14: Potential 2, Potential Threshold 4.
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', dice: { actor: [10, 10, 10], reactor: [6, 3] } });
    expect(t.events('criticals-banked').at(-1)).toMatchObject({ count: 2, lost: 1 });
    expect(t.now.banks.aldric!.reduce((s, e) => s + e.count, 0)).toBe(4);
  });
});

describe('several against one, one against several', () => {
  const CORA = { ...ALDRIC, id: 'cora', name: 'Cora' };

  it('assisting an attack: +1 to the result each (core-2011), no declaration needed; the assistant\'s skill is recorded (personae-core-2011.txt "Assisting in a Challenge")', () => {
    const t = new Table([ALDRIC, CORA, CULTIST]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', assistants: ['cora'], defense: 'dodge', dice: { actor: [6, 4, 2], reactor: [7, 3] } });
    const c = lastChallenge(t);
    expect(c.result.actor.modifiers).toContainEqual({ value: 1, source: 'assist (Cora)' });
    expect(c.result.outcome).toBe('success');
    expect(c.notes.join(' ')).toMatch(/Assisting .*Cora with Longsword/);
  });

  it('assisting a Power Challenge in a violent encounter: the same supernatural skill, declared on the assistant\'s turn (personae-core-2011.txt "Assisting in a Challenge")', () => {
    const MAGE = { ...CULTIST, id: 'mage', name: 'Mage' };
    const t = new Table([CULTIST, MAGE, CORA, ALDRIC]);
    t.toViolence('cultist');
    t.turnOf('cultist');
    // Cora has no Magic: she cannot assist a Fireball.
    t.refuse({ type: 'power', actor: 'cultist', power: 'Fireball', targets: ['aldric'], assistants: ['cora'] }, 'assist-skill', /Assisting in a Challenge/);
    t.refuse({ type: 'power', actor: 'cultist', power: 'Fireball', targets: ['aldric'], assistants: ['mage'] }, 'assist-not-declared', /Assisting in a Challenge/);
  });

  it('concerted effort (srd-v4): dice combined, one hit per participant, once per scene', () => {
    const t = new Table([ALDRIC, CORA, CULTIST], {}, 'srd-v4');
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', concerted: ['cora'], defense: 'dodge', dice: { actor: [9, 8, 7, 6, 2, 1], reactor: [6, 3] } });
    const c = lastChallenge(t);
    // Both have Potential Threshold 4: at most 4 + 2 = 6 dice.
    expect(c.result.actor.pool.dice).toBe(6);
    expect(c.notes.join(' ')).toMatch(/concerted effort: Aldric 3 \+ Cora 3 = 6 dice/);
    expect(t.events('hits-sustained').at(-1)).toMatchObject({ incoming: 2 });
    // Cora gave her action to the effort.
    t.turnOf('cora');
    t.refuse({ type: 'attack', actor: 'cora', target: 'cultist' }, 'action-used');
    t.turnOf('aldric');
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', concerted: ['cora'] }, 'concerted-effort-limit', /Concerted Effort/);
    const core = new Table([ALDRIC, CORA, CULTIST]);
    core.toViolence('aldric');
    core.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', concerted: ['cora'] }, 'concerted-effort-limit');
  });

  it('one actor against several: a challenge to each, each rolled', () => {
    const t = new Table([ALDRIC, CULTIST, { ...CULTIST, id: 'acolyte', name: 'Acolyte' }]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', targets: ['cultist', 'acolyte'], defense: 'dodge', targetDice: { cultist: { actor: [9, 1, 1], reactor: [2, 1] }, acolyte: { actor: [1, 1, 1], reactor: [9, 9] } } });
    const cs = t.events('challenge-resolved');
    expect(cs.map((c) => [c.reactor, c.result.outcome])).toEqual([
      ['cultist', 'success'],
      ['acolyte', 'failure'],
    ]);
    expect(t.character('cultist').hits).toBe(1);
    expect(t.character('acolyte').hits).toBe(0);
  });

  it('Expertise: one more die, once per session', () => {
    const t = new Table([{ ...ALDRIC, expertise: [{ name: 'Swordlore' }] }, CULTIST]);
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', expertise: 'Swordlore', defense: 'dodge' }, seededDice(2));
    expect(lastChallenge(t).result.actor.pool.explanation).toMatch(/\+1 die Expertise: Swordlore/);
    t.endTurn();
    t.endTurn();
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist', expertise: 'Swordlore' }, 'expertise-used', /Expertise/);
    t.run({ type: 'begin-session', actor: 'gm' });
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', expertise: 'Swordlore' }, seededDice(3));
  });
});

describe('steering with criticals (personae-v4-srd-playing.txt "Critical Success")', () => {
  it('after the dice, a critical steers a failure to a glancing success, spent only as needed', () => {
    const t = new Table([{ ...ALDRIC, criticals: 2 }, CULTIST], {}, 'srd-v4');
    t.toViolence('aldric');
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', spend: { steer: 1 }, dice: { actor: [3, 2, 1], reactor: [9, 5] } });
    const c = lastChallenge(t);
    expect(c.result).toMatchObject({ outcome: 'success', grade: 'glancing' });
    expect(c.result.explanation.join('\n')).toMatch(/Outcome after steering: glancing success/);
    expect(t.character('cultist').hits).toBe(1);
    expect(t.now.banks.aldric!.reduce((s, e) => s + e.count, 0)).toBe(1);
    t.endTurn();
    t.endTurn();
    // A clear success needs no steering: nothing is spent.
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', defense: 'dodge', spend: { steer: 1 }, dice: { actor: [9, 2, 1], reactor: [3, 1] } });
    expect(t.now.banks.aldric!.reduce((s, e) => s + e.count, 0)).toBe(1);
  });
});
