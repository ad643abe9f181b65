import { describe, expect, it } from 'vitest';
import { logAt, poolDice, type Actor } from '@personae/core';
import { seededDice } from '@personae/dice';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { givenDice } from '@personae/dice';
import { parseLucidityScenario, runLucidityScenario, decideEncounter, evolveEncounter, initialEncounter, parseEncounterCommand, redactEncounterEvent, type LucidityCommandInput, type LucidityEvent, type LucidityTableState } from '../src';
import { decideRecorded, parseRecorded } from './recorded';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const P1: Actor = { role: 'player', participantId: 'p1' };

function apply(state: LucidityTableState, raw: LucidityCommandInput, actor: Actor = GM): LucidityTableState {
  const parsed = parseRecorded(raw);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideRecorded(state, parsed.command, { actor, dice: seededDice(5), now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, state);
}

const last = <T extends LucidityEvent['type']>(s: LucidityTableState, type: T) => {
  const e = logAt(s.log, -1)!;
  expect(e.type).toBe(type);
  return e as Extract<LucidityEvent, { type: T }>;
};

/**
 * "a" (party, controlled by p1, first in initiative), "c" (party) and "b" (foe). Level 1 stat blocks:
 * a has STR +1, CON +1, CHA +2, Health 10, Lucidity 14, Energy 5.
 */
function table(a: Record<string, unknown> = {}, b: Record<string, unknown> = {}, c: Record<string, unknown> = {}, options: Record<string, unknown> = {}): LucidityTableState {
  let s = initialEncounter('standard', options);
  s = apply(s, { type: 'add', id: 'a', side: 'party', controller: 'p1', statBlock: { name: 'A', health: 10, lucidity: 14, energy: 5, attributes: { STR: 1, CON: 1, CHA: 2 }, weapons: [{ name: 'Axe', damage: '1d8' }], ...a } });
  s = apply(s, { type: 'add', id: 'b', side: 'foe', statBlock: { name: 'B', health: 20, defense: 10, weapons: [{ name: 'Spear', damage: '1d6' }], ...b } });
  s = apply(s, { type: 'add', id: 'c', side: 'party', statBlock: { name: 'C', health: 8, lucidity: 14, ...c } });
  return apply(s, { type: 'start', dice: { a: 20, b: 10, c: 1 } });
}

/** Ends turns until round `round` begins on a's turn. */
function toRound(s: LucidityTableState, round: number): LucidityTableState {
  while (s.game.round < round) s = apply(s, { type: 'end-turn' });
  return s;
}

describe('"Long Rests" and "Lunar Pauses" at the table', () => {
  it('a long rest: d4 of 3 heals 4 -> 7, Energy to its maximum, Lucidity 13 -> 14', () => {
    let s = apply(table(), { type: 'damage', target: 'a', amount: 6 });
    s = apply(s, { type: 'lucidity-roll', actor: 'a', d20: 2 });
    s = apply(s, { type: 'rest', id: 'a', healthDice: [3] });
    expect(s.game.combatants.a).toMatchObject({ health: 7, lucidity: 14, energy: 5 });
    expect(last(s, 'rested').data).toMatchObject({ healed: 3, lucidityGained: 1, healthDice: [3] });
  });
  it('Fast Healer rolls a second d4: 3 + 4 heals 4 -> 10 (capped at Max Health 10)', () => {
    let s = apply(table({ traits: ['Fast Healer'] }), { type: 'damage', target: 'a', amount: 6 });
    s = apply(s, { type: 'rest', id: 'a', healthDice: [3, 4] });
    expect(s.game.combatants.a!.health).toBe(10);
    expect(last(s, 'rested').data.healthDice).toEqual([3, 4]);
  });
  it('with a Lunar Pause Lucidity rises 2 in all (lunarLucidity=two-total: 10 -> 12), or 4 when stacked (10 -> 14)', () => {
    const spend4 = (s: LucidityTableState) => [1, 2, 3, 4].reduce((x) => apply(x, { type: 'lucidity-roll', actor: 'a', d20: 1 }), s);
    const two = apply(spend4(table()), { type: 'rest', id: 'a', lunarPause: true, healthDice: [1] });
    expect(two.game.combatants.a!.lucidity).toBe(12);
    const stacked = apply(spend4(table({}, {}, {}, { lunarLucidity: 'stacked' })), { type: 'rest', id: 'a', lunarPause: true, healthDice: [1] });
    expect(stacked.game.combatants.a!.lucidity).toBe(14);
  });
  it('only the GM calls a rest; a refused rest changes nothing', () => {
    const s = table();
    const before = JSON.stringify(s);
    expect(() => apply(s, { type: 'rest', id: 'a' }, P1)).toThrow(/only the GM/);
    expect(JSON.stringify(s)).toBe(before);
  });
});

describe('"Advancement" at the table', () => {
  it('10 XP reaches level 2; +1 CON (1 -> 2) recalculates: Health 7 -> 14 by the formula, Lucidity 14 -> 15, Energy 6 -> 10', () => {
    // Stat block maxima follow the formulas at level 1: Health 1 x 1 + 4 + 2 = 7, Energy 0 + 6 = 6.
    let s = table({ health: 7, energy: 6 });
    s = apply(s, { type: 'award-xp', id: 'a', amount: 10, reason: 'a milestone' });
    expect(last(s, 'xp-awarded').data).toMatchObject({ xp: 10, levelReached: 2 });
    s = apply(s, { type: 'level-up', id: 'a', raise: 'CON' }, P1);
    // Level 2, CON +2: 2 x 2 + 8 + 2 = 14 Health; WIL 0: 0 + 8 + 2 = 10 Energy; Lucidity 2 + 13 = 15.
    expect(s.game.combatants.a).toMatchObject({ level: 2, maxHealth: 14, health: 14, maxLucidity: 15, lucidity: 15, maxEnergy: 10, energy: 10 });
    expect(s.game.combatants.a!.attributes.CON).toBe(2);
  });
  it('healthRecalc=incremental adds CON + 4 = 6 for the new level (7 -> 13); levelUpCurrent=keep leaves the current values', () => {
    let s = table({ health: 7, energy: 6 }, {}, {}, { healthRecalc: 'incremental', levelUpCurrent: 'keep' });
    s = apply(s, { type: 'damage', target: 'a', amount: 2 });
    s = apply(apply(s, { type: 'award-xp', id: 'a', amount: 10 }), { type: 'level-up', id: 'a', raise: 'CON' });
    expect(s.game.combatants.a).toMatchObject({ maxHealth: 13, health: 5, maxEnergy: 10, energy: 6 });
  });
  it('a raise of DEX lifts Defense by 1; no level-up without the XP; none above +3', () => {
    let s = apply(table({ xp: 10, attributes: { STR: 3, DEX: 0 } }), { type: 'level-up', id: 'a', raise: 'DEX' });
    expect(s.game.combatants.a!.defense).toBe(11);
    expect(() => apply(s, { type: 'level-up', id: 'a', raise: 'DEX' })).toThrow(/has 10 XP; level 3 needs 30/);
    const t = table({ xp: 10, attributes: { STR: 3 } });
    expect(() => apply(t, { type: 'level-up', id: 'a', raise: 'STR' })).toThrow(/cannot bring an attribute above \+3/);
  });
  it('a player levels only a character it commands', () => {
    expect(() => apply(table({}, {}, { xp: 10 }), { type: 'level-up', id: 'c', raise: 'CON' }, P1)).toThrow(/do not command/);
  });
  it('undo takes a level-up back', () => {
    let s = apply(table({ xp: 10 }), { type: 'level-up', id: 'a', raise: 'CON' });
    s = apply(s, { type: 'undo', seen: s.log.length });
    expect(s.game.combatants.a).toMatchObject({ level: 1, maxHealth: 10 });
  });
});

describe('"Begin Casting a Spell" and "Cast a Spell"', () => {
  const firebolt = { spells: [{ name: 'Firebolt', energyCost: 3, castingTimeRounds: 1, effect: '2d6 fire' }] };
  it('begun in round 1 (a free action), a 1-round spell is cast in round 2 for 2 actions and 3 Energy (5 -> 2)', () => {
    let s = apply(table(firebolt), { type: 'begin-casting', actor: 'a', spell: 'Firebolt' }, P1);
    expect(s.game.combatants.a!.actions).toBe(2);
    expect(() => apply(s, { type: 'cast', actor: 'a', target: 'b' }, P1)).toThrow(/ready in round 2; this is round 1/);
    s = toRound(s, 2);
    s = apply(s, { type: 'cast', actor: 'a', target: 'b' }, P1);
    expect(s.game.combatants.a).toMatchObject({ energy: 2, actions: 0, casting: null });
    expect(last(s, 'spell-cast').data).toMatchObject({ cost: 2, energyCost: 3, effect: '2d6 fire' });
  });
  it('10 + CON = 11 damage in one hit while casting delays it a round; 6 then 5 only when cumulative', () => {
    let s = apply(table({ ...firebolt, health: 30 }), { type: 'begin-casting', actor: 'a', spell: 'Firebolt' });
    s = toRound(apply(s, { type: 'damage', target: 'a', amount: 11 }), 2);
    expect(() => apply(s, { type: 'cast', actor: 'a' })).toThrow(/ready in round 3/);
    let t = apply(table({ ...firebolt, health: 30 }), { type: 'begin-casting', actor: 'a', spell: 'Firebolt' });
    t = apply(apply(t, { type: 'damage', target: 'a', amount: 6 }), { type: 'damage', target: 'a', amount: 5 });
    expect(t.game.combatants.a!.casting!.delays).toBe(0);
    let u = apply(table({ ...firebolt, health: 30 }, {}, {}, { castDelayDamage: 'cumulative' }), { type: 'begin-casting', actor: 'a', spell: 'Firebolt' });
    u = apply(apply(u, { type: 'damage', target: 'a', amount: 6 }), { type: 'damage', target: 'a', amount: 5 });
    expect(u.game.combatants.a!.casting!.delays).toBe(1);
  });
  it('Energy short of the cost is refused; Rapid Strikes casts for 1 action only under rapidStrikesSpells=included (C12)', () => {
    expect(() => apply(table({ ...firebolt, energy: 2 }), { type: 'begin-casting', actor: 'a', spell: 'Firebolt' })).toThrow(/needs 3 Energy/);
    const quick = { spells: [{ name: 'Spark', energyCost: 1, castingTimeRounds: 0 }], traits: ['Rapid Strikes'] };
    const cast = (options: Record<string, unknown>) => apply(apply(table(quick, {}, {}, options), { type: 'begin-casting', actor: 'a', spell: 'Spark' }), { type: 'cast', actor: 'a' });
    expect(cast({}).game.combatants.a!.actions).toBe(0);
    expect(cast({ rapidStrikesSpells: 'included' }).game.combatants.a!.actions).toBe(1);
  });
});

describe('"Narrative Combat"', () => {
  it('CHA +2 against a resistance of d20 5 + WIL 0 = 5, short of 12: the full 2 damage; a 15 resists: half, 1', () => {
    const ploy = 'exposes the flaw in the argument';
    const full = apply(table(), { type: 'narrative', actor: 'a', target: 'b', attribute: 'CHA', resistAttribute: 'WIL', d20: 5, ploy });
    expect(last(full, 'narrative-defeat').data).toMatchObject({ resistance: { d20: 5, total: 5, target: 12 }, resisted: false, damage: 2 });
    expect(full.game.combatants.b!.health).toBe(18);
    const half = apply(table(), { type: 'narrative', actor: 'a', target: 'b', attribute: 'CHA', d20: 15, ploy });
    expect(half.game.combatants.b!.health).toBe(19);
  });
  it('narrativeDamage=always-full: 2 damage whatever the resistance; the GM may rule the resistance itself', () => {
    const s = apply(table({}, {}, {}, { narrativeDamage: 'always-full' }), { type: 'narrative', actor: 'a', target: 'b', attribute: 'CHA', d20: 20, ploy: 'sets the gunpowder room alight' });
    expect(s.game.combatants.b!.health).toBe(18);
    const r = apply(table(), { type: 'narrative', actor: 'a', target: 'b', attribute: 'CHA', resisted: true, ploy: 'breaks the door' });
    expect(last(r, 'narrative-defeat').data).toMatchObject({ resistance: null, damage: 1 });
  });
});

describe('traits at the table ("Creating Traits")', () => {
  it('Wingman: 1 action; the ally gets a buff on KNO rolls (d20 8 + buff 4 = 12) until a roll fails; once until a rest', () => {
    let s = apply(table({ traits: ['Wingman'] }), { type: 'wingman', actor: 'a', ally: 'c', attribute: 'KNO' }, P1);
    expect(s.game.combatants.a!.actions).toBe(1);
    s = apply(s, { type: 'roll', actor: 'c', attribute: 'KNO', target: 10, d20: 8, buffs: 0, buffDice: [4] });
    expect(last(s, 'rolled').data.roll).toMatchObject({ total: 12, success: true });
    expect(s.game.combatants.c!.wingman).toEqual({ attribute: 'KNO', from: 'a' });
    s = apply(s, { type: 'roll', actor: 'c', attribute: 'STR', target: 10, d20: 2 });
    expect(s.game.combatants.c!.wingman).toBeNull();
    expect(() => apply(s, { type: 'wingman', actor: 'a', ally: 'c', attribute: 'KNO' }, P1)).toThrow(/since the last rest/);
    s = apply(s, { type: 'rest', id: 'c', healthDice: [1] });
    expect(apply(s, { type: 'wingman', actor: 'a', ally: 'c', attribute: 'KNO' }, P1).game.combatants.c!.wingman).not.toBeNull();
    expect(() => apply(table({ traits: ['Wingman'] }), { type: 'wingman', actor: 'a', ally: 'b', attribute: 'KNO' })).toThrow(/not one of A's allies/);
  });
  it('Inspirator: + CHA 2 once per rest (d20 8 + KNO 0 + 2 = 10)', () => {
    let s = apply(table({ traits: ['Inspirator'] }), { type: 'roll', actor: 'a', attribute: 'KNO', target: 9, d20: 8, inspire: true });
    expect(last(s, 'rolled').data.roll).toMatchObject({ total: 10, success: true });
    expect(() => apply(s, { type: 'roll', actor: 'a', attribute: 'KNO', target: 9, d20: 8, inspire: true })).toThrow(/used Inspirator since the last rest/);
    s = apply(s, { type: 'rest', id: 'a', healthDice: [1] });
    expect(last(apply(s, { type: 'roll', actor: 'a', attribute: 'KNO', target: 9, d20: 8, inspire: true }), 'rolled').data.roll.total).toBe(10);
    expect(() => apply(table(), { type: 'roll', actor: 'a', attribute: 'KNO', target: 9, inspire: true })).toThrow(/does not have Inspirator/);
  });
  it('Rumor-monger and Natural Immunity: a buff die on information and disease rolls (d20 8 + 5 = 13); none on other rolls', () => {
    const roll = (traits: string[], purpose: 'information' | 'disease' | 'other') => last(apply(table({ traits }), { type: 'roll', actor: 'a', attribute: 'AWA', target: 10, d20: 8, buffs: 0, buffDice: [5], purpose }), 'rolled').data.roll.total;
    expect(roll(['Rumor-monger'], 'information')).toBe(13);
    expect(roll(['Natural Immunity'], 'disease')).toBe(13);
    expect(roll(['Rumor-monger'], 'other')).toBe(8);
  });
  it('Debator: an argument CHA roll uses KNO +3 in place of CHA +2 (d20 8 + 3 = 11)', () => {
    const s = apply(table({ traits: ['Debator'], attributes: { CHA: 2, KNO: 3 } }), { type: 'roll', actor: 'a', attribute: 'CHA', target: 10, d20: 8, purpose: 'argument' });
    expect(last(s, 'rolled').data.roll.total).toBe(11);
    const plain = apply(table({ traits: ['Debator'], attributes: { CHA: 2, KNO: 3 } }), { type: 'roll', actor: 'a', attribute: 'CHA', target: 10, d20: 8 });
    expect(last(plain, 'rolled').data.roll.total).toBe(10);
  });
  it('Adrenaline Rush: a failed roll to resist fear gives +6 Protection', () => {
    const s = apply(table({ traits: ['Adrenaline Rush'] }), { type: 'roll', actor: 'a', attribute: 'WIL', target: 15, d20: 3, purpose: 'fear' });
    expect(s.game.combatants.a!.adrenalineUntil).toBeGreaterThan(0);
  });
  it("Defender: B's shield 4 protects its ally D; d20 12 + 1 = 13 against 10, Penetration 3: 4 - 3 = 1 off 5 damage, 4 taken; Shieldbreaker ignores it", () => {
    const withD = (aTraits: string[]) => {
      let s = table({ traits: aTraits }, { traits: ['Defender'], shieldProtection: 4 });
      s = apply(s, { type: 'add', id: 'd', side: 'foe', statBlock: { name: 'D', health: 20, defense: 10 } });
      return apply(s, { type: 'attack', actor: 'a', target: 'd', d20: 12, damageDice: [5], defendedBy: 'b' });
    };
    expect(last(withD([]), 'attacked').data).toMatchObject({ protection: 4, damageTaken: 4 });
    expect(last(withD(['Shieldbreaker']), 'attacked').data.damageTaken).toBe(5);
    expect(() => apply(table(), { type: 'attack', actor: 'a', target: 'b', d20: 12, damageDice: [5], defendedBy: 'c' })).toThrow(/does not have Defender/);
  });
  it('Exploitative: after a failed minor exploit against it, B may try the same exploit back; not after a success', () => {
    let s = apply(table({}, { traits: ['Exploitative'] }), { type: 'exploit', actor: 'a', target: 'b', kind: 'minor', success: false, ruling: 'the trip fails' });
    s = apply(s, { type: 'exploit', actor: 'b', target: 'a', kind: 'minor', success: true, ruling: 'B trips A instead', turnabout: true });
    expect(last(s, 'exploit-ruled').data.turnabout).toBe(true);
    const t = apply(table({}, { traits: ['Exploitative'] }), { type: 'exploit', actor: 'a', target: 'b', kind: 'minor', success: true, ruling: 'tripped' });
    expect(() => apply(t, { type: 'exploit', actor: 'b', target: 'a', kind: 'minor', success: true, ruling: 'x', turnabout: true })).toThrow(/not a failed minor exploit/);
  });
  it('Guts: a massive weapon, or dual-wielding a two-handed one, needs the trait', () => {
    const maul = { weapons: [{ name: 'Maul', damage: '2d6', hands: 'massive' }] };
    expect(() => apply(table(maul), { type: 'attack', actor: 'a', target: 'b', d20: 12, damageDice: [3, 3] })).toThrow(/needs Guts/);
    expect(last(apply(table({ ...maul, traits: ['Guts'] }), { type: 'attack', actor: 'a', target: 'b', d20: 12, damageDice: [3, 3] }), 'attacked').data.hit).toBe(true);
    const great = { weapons: [{ name: 'Greatsword', damage: '2d6', hands: 2 }] };
    expect(() => apply(table(great), { type: 'attack', actor: 'a', target: 'b', d20: 12, damageDice: [3, 3], dualWielding: true })).toThrow(/dual-wielding it needs Guts/);
  });
});

describe('redaction of the new events', () => {
  it("a hidden foe's rest, XP and spells never reach a player", () => {
    let s = table();
    s = apply(s, { type: 'add', id: 'h', side: 'foe', hidden: true, statBlock: { name: 'Hidden', health: 5, energy: 4, spells: [{ name: 'Hex', energyCost: 1 }] } });
    s = apply(s, { type: 'rest', id: 'h', healthDice: [2] });
    expect(redactEncounterEvent(logAt(s.log, -1)!, P1, s)).toBeNull();
    s = apply(s, { type: 'award-xp', id: 'h', amount: 10 });
    expect(redactEncounterEvent(logAt(s.log, -1)!, P1, s)).toBeNull();
  });
});

describe('scenarios replayed (examples/lucidity/scenarios)', () => {
  const dir = join(import.meta.dirname, '../../../examples/lucidity/scenarios');
  const run = (file: string) => {
    const scenario = parseLucidityScenario(readFileSync(join(dir, file), 'utf8'), file);
    const base = join(dir, file, '..');
    return runLucidityScenario(scenario, (p) => parse(readFileSync(join(base, p), 'utf8')), givenDice([]));
  };
  it('after-the-ambush.yaml meets its expectations, and a second replay gives the same events', () => {
    const first = run('after-the-ambush.yaml');
    expect(first.error).toBeUndefined();
    expect(first.unmet).toEqual([]);
    expect(JSON.stringify(run('after-the-ambush.yaml').events)).toBe(JSON.stringify(first.events));
    // Folding the recorded events again, from nothing, gives the same game.
    const again = first.events.reduce(evolveEncounter, initialEncounter());
    expect(JSON.stringify(again.game)).toBe(JSON.stringify(first.state.game));
  });
  it('every scenario under invalid/ stops with a refusal naming a field and the seed', () => {
    const files = readdirSync(join(dir, 'invalid'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) {
      const r = run(`invalid/${f}`);
      expect(r.error, f).toBeDefined();
      expect(r.error!.message, f).toMatch(/\w+: /);
    }
  });
});

describe('physical dice at a Lucidity table: a player hears of the pools they may fill', () => {
  it("entering another combatant's end-of-round d20 is refused, naming only the player's own pools", () => {
    const s = table();
    const parsed = parseEncounterCommand({ type: 'end-turn' });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const refusal = (entered: Record<string, number[]>) => {
      try {
        decideEncounter(s, parsed.command, { actor: P1, dice: poolDice(entered, seededDice(1)), now: '2026-01-01T00:00:00Z' });
        return null;
      } catch (e) {
        return e as { code: string; field: string; message: string };
      }
    };
    const r = refusal({ 'zero-health:b': [5] });
    expect(r).toMatchObject({ code: 'not-your-dice', field: 'dice.zero-health:b' });
    expect(r!.message).toMatch(/B's end-of-round d20 is B's roll; a player enters dice only for their own rolls/);
    expect(r!.message).toMatch(/; in an end-turn command you may fill "zero-health:a" \(A's end-of-round d20\)$/);
    expect(r!.message).not.toMatch(/zero-health:c/);
    // a pool the command does not roll: the list is the player's own pools too
    expect(refusal({ d20: [5] })).toMatchObject({ code: 'dice-pool', message: expect.stringMatching(/an end-turn command rolls no pool "d20"; it rolls "zero-health:a" \(A's end-of-round d20\)$/) });
  });
});
