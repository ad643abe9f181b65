import { describe, expect, it } from 'vitest';
import { poolDice } from '@personae/core';
import { givenDice, seededDice, type DiceSource } from '@personae/dice';
import { resourceCap } from '../../src/character';
import { sheet } from '../helpers/sheets';
import {
  CombatantSchema,
  describeEvent,
  personaeTable,
  presetOptions,
  weaponAttributeNote,
  type CombatantInput,
  type TableCommandInput,
  type TableState,
  type Viewer,
} from '../../src/index';
import { ALDRIC, BRENNA, CULTIST, Table } from '../encounter/helpers';

/*
 * Worked cases computed by hand from the three Personae documents, one for each point of the review of
 * the rules: the readings corrected, the rules that were missing, the answers every screen must share,
 * and the readings the code makes where the documents leave a gap. Each names the document and section
 * it is worked from; the numbers in the comments are the arithmetic done by hand.
 */

const CORE = 'personae-core-2011.txt';
const V4 = 'personae-v4-srd-playing.txt';

function lastChallenge(t: Table) {
  return t.events('challenge-resolved').at(-1)!;
}

// --- table-level helpers ----------------------------------------------------------------------

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };

/** Dice the server's own source rolls (not typed in by a player). */
const serverDice = (dice: number[]): DiceSource => ({ ...givenDice(dice), kind: 'seeded' });

class AtTable {
  state: TableState = personaeTable.initialState();
  run(viewer: Viewer, raw: TableCommandInput, dice: DiceSource = seededDice(5)) {
    const parsed = personaeTable.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const events = personaeTable.decide(this.state, parsed.command, { actor: viewer, dice, now: '2026-11-26T05:00:00.000Z', settings: { physicalDice: true } });
    for (const e of events) this.state = personaeTable.evolve(this.state, JSON.parse(JSON.stringify(e)));
    return events;
  }
  refusedWith(viewer: Viewer, raw: TableCommandInput): string {
    const before = JSON.stringify(this.state);
    let code = '';
    try {
      this.run(viewer, raw);
    } catch (e) {
      code = (e as { code?: string }).code ?? 'thrown';
    }
    expect(JSON.stringify(this.state)).toBe(before);
    return code;
  }
}

describe('readings corrected', () => {
  it(`${V4} "Critical Success": spent after the dice, a critical steers a failure to a glancing success and no further; spent before, it is an automatic success`, () => {
    const rich = { ...ALDRIC, criticals: 2 };
    const t = new Table([rich, CULTIST], {}, 'srd-v4');
    // Persuade 1, 1 + Competence 3 = 4 against Resist 9, 1 + Power 2 = 11: a failure, steered to a glancing success.
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', spend: { steer: 1 }, dice: { actor: [1, 1], reactor: [9, 1] } });
    expect(lastChallenge(t).result).toMatchObject({ outcome: 'success', grade: 'glancing' });
    expect(t.events('criticals-spent')).toHaveLength(1);
    // 5 + 3 = 8 against 6 + 2 = 8 ties; then 4 + 3 = 7 against 1 + 2 = 3: a success by the tie-break, glancing.
    // A critical does not steer it to clear: nothing is spent.
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', spend: { steer: 1 }, dice: { actor: [5, 4], reactor: [6, 1] } });
    expect(lastChallenge(t).result).toMatchObject({ outcome: 'success', grade: 'glancing' });
    expect(t.events('criticals-spent')).toHaveLength(1);
    // Before the roll: an automatic success, rolling no dice.
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', spend: { automaticSuccess: true } });
    expect(lastChallenge(t).result.outcome).toBe('success');
    expect(t.events('criticals-spent')).toHaveLength(2);
  });

  it(`${CORE} "Critical Success": a companion's unadjusted 10s beyond the first are criticals under core-2011`, () => {
    const wren = { ...ALDRIC, id: 'wren', name: 'Wren', role: 'companion' as const };
    const t = new Table([wren, CULTIST]);
    // Two natural 10s: the second is one critical.
    t.run({ type: 'interact', actor: 'wren', target: 'cultist', skill: 'Persuade', dice: { actor: [10, 10], reactor: [3, 1] } });
    expect(t.events('criticals-banked').at(-1)).toMatchObject({ owner: 'wren', count: 1, lost: 0 });
    expect(t.now.banks.wren).toEqual([{ count: 1, earned: expect.anything() }]);
  });

  it(`${CORE} "Injury and Death", "What Special Abilities Can Do": Horrific Wound gives the hits at once; the status waits for the end of the round`, () => {
    const horrific = { ...ALDRIC, criticals: 1, specialAbilities: [{ name: 'Horrific Wound', effect: { type: 'critical-spend' as const, feat: 'injure-outright' as const } }] };
    const t = new Table([horrific, CULTIST]);
    t.toViolence('aldric');
    // Longsword 9 + Stature 3 = 12 against Dodge 2 + Cunning 2 = 4: a success. The cultist's threshold is 1 + Stature 2 = 3.
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', spend: { ability: 'Horrific Wound' }, defense: 'dodge', dice: { actor: [9, 2, 1], reactor: [2, 1] } });
    expect(t.character('cultist')).toMatchObject({ hits: 3, status: 'unharmed' });
    t.endTurn();
    t.endTurn();
    expect(t.character('cultist').status).toBe('injured');
  });

  it(`${CORE} "Assisting in a Challenge": the assistant acts with the skill assisted (recorded), +1 under core-2011; a Power Challenge takes the same supernatural skill`, () => {
    const t = new Table([ALDRIC, BRENNA, CULTIST]);
    // 3 + 3 + 1 (Brenna assists) = 7 against Resist 5 + 2 = 7 ties; then 2 + 4 = 6 against 1 + 2 = 3: a success.
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', assistants: ['brenna'], dice: { actor: [3, 2], reactor: [5, 1] } });
    const c = lastChallenge(t);
    expect(c.result.actor.modifiers).toContainEqual({ value: 1, source: 'assist (Brenna)' });
    expect(c.notes.join(' ')).toMatch(/Brenna with Persuade/);
    // Aldric has no Magic: he cannot add to Brenna's Fireball.
    t.refuse({ type: 'power', actor: 'brenna', power: 'Fireball', target: 'cultist', assistants: ['aldric'] }, 'assist-skill', /"Assisting in a Challenge"/);
  });

  it(`${CORE} "Duration / Duration Identifiers": a power that inflicts hits is Instant; Maintain is refused with the rule named`, () => {
    const parsed = CombatantSchema.safeParse({ ...CULTIST, powers: [{ name: 'Burning Hands', kind: 'harm', duration: 'maintain' }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(/always Instant .*"Duration \/ Duration Identifiers"/);
    expect(CombatantSchema.safeParse({ ...CULTIST, powers: [{ name: 'Burning Hands', kind: 'harm', duration: 'instant' }] }).success).toBe(true);
  });

  it(`${V4} "The Challenge": encounters escalate as the fiction makes sense; no mandatory hostile step under srd-v4`, () => {
    const t = new Table([ALDRIC, CULTIST], {}, 'srd-v4');
    expect(t.now.options.escalationMaySkip).toBe(true);
    t.run({ type: 'escalate', actor: 'gm', to: 'non-violent' });
    t.run({ type: 'escalate', actor: 'gm', to: 'violent' }, seededDice(1));
    expect(t.now.clock.stage).toBe('violent');
  });
});

describe('rules that were missing (core-2011)', () => {
  it(`${CORE} "Unopposed Challenges": the documents' Dunmore jumps from a window inside an encounter; the GM rolls one die fewer`, () => {
    const dunmore: CombatantInput = { id: 'dunmore', name: 'Dunmore', attributes: { competence: 2, prowess: 3, cunning: 2, power: 1, knowledge: 2, stature: 2 }, skills: [{ name: 'Acrobatics', dice: 3, attribute: 'prowess' }] };
    const t = new Table([dunmore, CULTIST]);
    t.run({ type: 'escalate', actor: 'gm', to: 'non-violent' });
    // 6 + Prowess 3 = 9 against the GM's two dice, 7 + 0: a success.
    t.run({ type: 'unopposed', actor: 'dunmore', skill: 'Acrobatics', attribute: 'prowess', difficulty: 'easy', dice: { actor: [1, 5, 6], reactor: [3, 7] } });
    const c = lastChallenge(t);
    expect(c.result.reactor.dice).toHaveLength(2);
    expect(c.result.outcome).toBe('success');
  });

  it(`${CORE} "Resources": nothing above the Resource Cap; the GM rules a purchase lowers it; a boost lasts its scenes`, () => {
    const t = new AtTable();
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), owner: 'p-ann' });
    const id = Object.keys(t.state.characters)[0]!;
    const cap = () => resourceCap(t.state.characters[id]!.sheet).total;
    expect(cap()).toBe(1);
    expect(t.refusedWith(ann, { type: 'purchase', id, item: 'a sloop', cost: 4 })).toBe('over-resource-cap');
    // A boost of 3 for one scene: 1 + 3 = 4, so the sloop can be had; when the scene ends the Cap is 1 again.
    t.run(gm, { type: 'resource-boost', id, amount: 3, scenes: 1, reason: 'a cache of jewels' });
    expect(cap()).toBe(4);
    t.run(ann, { type: 'purchase', id, item: 'a sloop', cost: 4 });
    t.run(gm, { type: 'encounter', command: { type: 'end-scene', actor: 'gm' } });
    expect(cap()).toBe(1);
    // The GM rules that a purchase lowers the Cap by one: 1 - 1 = 0.
    t.run(gm, { type: 'purchase', id, item: 'a bribe', cost: 1, lowersCap: 1 });
    expect(cap()).toBe(0);
  });

  it(`${CORE} "What Special Abilities Can Do": Taunt escalates at once and the opponent attacks; Misdirection's follow-up answer rerolls a die`, () => {
    const scope = { skills: ['Persuade'], role: 'both' as const };
    const resisting = { ...CULTIST, skills: [...(CULTIST.skills ?? []), { name: 'Resist', dice: 2, attribute: 'power' as const }] };
    const taunting = new Table([{ ...ALDRIC, specialAbilities: [{ name: 'Taunt', effect: { type: 'taunt' as const, scope } }] }, resisting]);
    taunting.run({ type: 'escalate', actor: 'gm', to: 'non-violent' });
    // 6 + 3 = 9 against 4 + 2 = 6: won.
    taunting.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: { actor: [6, 5], reactor: [4, 2] } }, seededDice(2));
    expect(taunting.now.clock.stage).toBe('violent');
    taunting.run({ type: 'attack', actor: 'cultist', target: 'aldric', dice: { actor: [3, 2], reactor: [9, 8] } });
    expect(taunting.events('action-taken').at(-1)).toMatchObject({ actor: 'cultist', usesAction: false });

    const misdirecting = new Table([{ ...ALDRIC, specialAbilities: [{ name: 'Misdirection', effect: { type: 'misdirection' as const, dice: 1, scope } }] }, resisting]);
    misdirecting.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Misdirection'], dice: { actor: [6, 5], reactor: [4, 2] } });
    // The follow-up: the cultist's 8, 7 must reroll the 7 (not the highest), keeping the second result, 2:
    // 8 + 2 = 10 against Aldric's 9 + 3 = 12.
    misdirecting.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [9, 1], reactor: [8, 7], extra: [2] } });
    expect(lastChallenge(misdirecting).result.reactor.dice).toEqual([8, 2]);
    expect(lastChallenge(misdirecting).result.outcome).toBe('success');
  });

  it(`${CORE} "Obstacles": an obstacle with its own pool answers a challenge, and takes hits only where the group gives it health`, () => {
    const door: CombatantInput = { id: 'door', name: 'Barred door', attributes: { stature: 2 }, skills: [{ name: 'Sturdiness', dice: 3, attribute: 'stature' }], obstacle: { health: 1 } };
    for (const [health, hits] of [['none', 0], ['hits', 1]] as const) {
      const t = new Table([ALDRIC, CULTIST, door], { obstacleHealth: health });
      t.toViolence('aldric', {}, seededDice(3));
      t.turnOf('aldric');
      // 8 + Stature 3 = 11 against the door's 7 + 2 = 9.
      t.run({ type: 'attack', actor: 'aldric', target: 'door', dice: { actor: [8, 2, 1], reactor: [7, 5, 1] } });
      expect(lastChallenge(t)).toMatchObject({ reactorSkill: 'Sturdiness', result: { outcome: 'success' } });
      expect(t.character('door').hits).toBe(hits);
    }
  });
});

describe('one answer on every screen', () => {
  it(`${CORE} "Weapons": a Spear skill the builder gave Cunning adds Stature in the encounter, and the builder's note says so`, () => {
    const spearman: CombatantInput = { id: 'spearman', name: 'Spearman', attributes: { cunning: 4, stature: 1 }, skills: [{ name: 'Spear', dice: 3, attribute: 'cunning', weapon: 'Spear' }], weapons: [{ name: 'Spear', size: 'two-handed' }] };
    expect(weaponAttributeNote(presetOptions('core-2011'), { range: 'melee' }, 'cunning').attribute).toBe('stature');
    const t = new Table([spearman, CULTIST]);
    t.toViolence('spearman');
    t.run({ type: 'attack', actor: 'spearman', target: 'cultist', defense: 'dodge', dice: { actor: [5, 4, 1], reactor: [6, 1] } });
    // 5 + Stature 1 = 6 against 6 + Cunning 2 = 8.
    expect(lastChallenge(t).result.actor.modifiers).toEqual([{ value: 1, source: 'Stature' }]);
    expect(lastChallenge(t).result.outcome).toBe('failure');
  });

  it(`${V4} "Clear Success, Glancing Success, and Steering": a challenge issued from the roller counts in the tally`, () => {
    const t = new AtTable();
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    const dwarf = Object.keys(t.state.characters)[0]!;
    // 8 + 3 = 11 against the opposition's 4 + 1 = 5: a success.
    t.run(ann, { type: 'roll', character: dwarf, actor: { name: 'Dwarf', dice: 2, modifiers: [{ value: 3, source: 'Stature' }] }, reactor: { name: 'Bandit', dice: 2, modifiers: [{ value: 1, source: 'Cunning' }] } }, poolDice({ actor: [8, 2] }, serverDice([4, 3])));
    expect(t.state.encounter.now!.characters[dwarf]!.tally).toMatchObject({ successes: 1, failures: 0 });
  });

  it(`${CORE} "The Challenge": under core-2011 no log line calls a success clear or glancing`, () => {
    const t = new Table([ALDRIC, CULTIST]);
    // 5 + 3 = 8 against 6 + 2 = 8 ties; 4 + 3 = 7 against 1 + 2 = 3: won on the tie-break (glancing in srd-v4's words).
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [5, 4], reactor: [6, 1] } });
    const lines = describeEvent(lastChallenge(t), t.now).join('\n');
    expect(lastChallenge(t).result.outcome).toBe('success');
    expect(lines).not.toMatch(/glancing|clear success/i);
  });
});

describe('readings where the documents leave a gap', () => {
  it(`${CORE} "Defense": without a declared or named defence the better passive one answers, Dodge on a tie`, () => {
    const t = new Table([ALDRIC, CULTIST]);
    t.toViolence('aldric');
    // The cultist: Dodge 2 dice + Cunning 2 and Block 2 dice + Stature 2 are equal: Dodge.
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', dice: { actor: [5, 4, 1], reactor: [6, 1] } });
    expect(lastChallenge(t).reactorSkill).toBe('Dodge');
    // A sturdier cultist (Stature 4): Block 2 + 4 beats Dodge 2 + 2.
    const u = new Table([ALDRIC, { ...CULTIST, attributes: { ...CULTIST.attributes, stature: 4 } }]);
    u.toViolence('aldric');
    u.run({ type: 'attack', actor: 'aldric', target: 'cultist', dice: { actor: [5, 4, 1], reactor: [6, 1] } });
    expect(lastChallenge(u).reactorSkill).toBe('Block');
  });

  it(`${CORE} "Passive vs. Active Defense": a declared parry holds until the defender's next turn begins`, () => {
    const t = new Table([ALDRIC, CULTIST]);
    t.toViolence('cultist');
    t.run({ type: 'defend', actor: 'cultist', kind: 'parry' });
    t.endTurn();
    t.run({ type: 'attack', actor: 'aldric', target: 'cultist', dice: { actor: [5, 4, 2], reactor: [6, 3] } });
    expect(lastChallenge(t).reactorSkill).toBe('Dagger');
    expect(t.now.combat!.defenses.cultist).toBeDefined();
    t.endTurn();
    // The cultist's turn begins: the parry is over.
    expect(t.now.combat!.turn.actor).toBe('cultist');
    expect(t.now.combat!.defenses.cultist).toBeUndefined();
  });

  it(`${CORE} "Weapons", "Defense": a light weapon cannot parry a heavy one`, () => {
    const gareth: CombatantInput = { ...ALDRIC, id: 'gareth', name: 'Gareth', skills: [{ name: 'Claymore', dice: 3, attribute: 'stature', weapon: 'Claymore' }], weapons: [{ name: 'Claymore', size: 'two-handed' }] };
    const t = new Table([gareth, CULTIST]);
    t.toViolence('cultist');
    t.run({ type: 'defend', actor: 'cultist', kind: 'parry', skill: 'Dagger' });
    t.endTurn();
    t.refuse({ type: 'attack', actor: 'gareth', target: 'cultist', defense: 'parry' }, 'illegal-parry', /"Passive vs. Active Defense"|"Defense"/);
  });

  it(`${CORE} "Injury and Death": a character past Incapacitated does not act`, () => {
    // Aldric's threshold 1 + Stature 3 = 4: Injured 4, Wounded 5, Incapacitated 6, Dying 7.
    const t = new Table([{ ...ALDRIC, hits: 7 }, CULTIST]);
    expect(t.character('aldric').status).toBe('dying');
    t.refuse({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade' }, 'cannot-act');
  });
});
