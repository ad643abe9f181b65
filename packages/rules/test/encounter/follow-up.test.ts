import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { describeEvent, describeSnapshot, publicEncounterEvent, type CombatantInput } from '../../src/index';
import { ALDRIC, CULTIST, Table } from './helpers';

// personae-core-2011.txt "What Special Abilities Can Do": Taunt and Misdirection.

const TAUNT = { name: 'Taunt', effect: { type: 'taunt' as const, scope: { skills: ['Persuade'], role: 'both' as const } } };
const MISDIRECTION = { name: 'Misdirection', effect: { type: 'misdirection' as const, dice: 1, scope: { skills: ['Persuade'], role: 'both' as const } } };

/** The cultist answers interactions with Resist, two dice + Power 2. */
const CULTIST_RESIST: CombatantInput = { ...CULTIST, skills: [...(CULTIST.skills ?? []), { name: 'Resist', dice: 2, attribute: 'power' }] };

function table(ability: typeof TAUNT | typeof MISDIRECTION): Table {
  const t = new Table([{ ...ALDRIC, specialAbilities: [ability] }, CULTIST_RESIST]);
  t.run({ type: 'escalate', actor: 'gm', to: 'non-violent' });
  return t;
}

/** Aldric's Persuade (6, 5 + Competence 3) against the cultist's Resist (4, 2 + Power 2): 9 against 6, a success. */
const WON = { actor: [6, 5], reactor: [4, 2] };
/** 2, 1 + 3 against 9, 8 + 2: a failure. */
const LOST = { actor: [2, 1], reactor: [9, 8] };

describe('Taunt (personae-core-2011.txt "What Special Abilities Can Do")', () => {
  it('a won interaction escalates to a violent encounter at once, and the opponent owes an Attack Challenge', () => {
    const t = table(TAUNT);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: WON }, seededDice(4));
    expect(t.events('challenge-resolved').at(-1)!.result.outcome).toBe('success');
    expect(t.events('escalated').at(-1)).toMatchObject({ by: 'aldric', from: 'non-violent', to: 'violent' });
    expect(t.now.clock.stage).toBe('violent');
    expect(t.now.combat).not.toBeNull();
    expect(t.now.followUp).toEqual({ kind: 'taunt', ability: 'Taunt', owner: 'aldric', actor: 'cultist', reactor: 'aldric' });
    const pending = t.events('follow-up-pending').at(-1)!;
    expect(describeEvent(pending, t.now).join(' ')).toMatch(/Aldric's Taunt: Cultist must attack Aldric at once/);
  });

  it('skips the steps between: under escalation srd-v4 a non-violent encounter goes straight to violence', () => {
    const t = new Table([{ ...ALDRIC, specialAbilities: [TAUNT] }, CULTIST_RESIST], {}, 'srd-v4');
    t.run({ type: 'escalate', actor: 'gm', to: 'non-violent' });
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: WON }, seededDice(4));
    expect(t.now.clock.stage).toBe('violent');
  });

  it('nothing else happens until the attack is made; it is made out of turn and spends no action', () => {
    const t = table(TAUNT);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: WON }, seededDice(4));
    const turn = t.now.combat!.turn.actor;
    t.refuse({ type: 'end-turn', actor: turn }, 'attack-owed', /"What Special Abilities Can Do"/);
    // The attack must be aimed at the taunter.
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist' }, 'attack-owed');
    const events = t.run({ type: 'attack', actor: 'cultist', target: 'aldric', dice: { actor: [3, 2], reactor: [9, 8] } });
    expect(events.find((e) => e.type === 'action-taken')).toMatchObject({ actor: 'cultist', usesAction: false });
    expect(events.find((e) => e.type === 'follow-up-ended')).toMatchObject({ actor: 'cultist', reactor: 'aldric', taken: true });
    const c = events.find((e) => e.type === 'challenge-resolved')!;
    expect(c).toMatchObject({ kind: 'attack', actor: 'cultist', reactor: 'aldric' });
    if (c.type === 'challenge-resolved') expect(c.notes.join(' ')).toMatch(/Aldric's Taunt with an immediate Attack Challenge, out of turn/);
    expect(t.now.followUp).toBeNull();
    // The turn under way keeps its action.
    expect(t.now.combat!.turn.actor).toBe(turn);
    if (turn === 'cultist') expect(t.now.combat!.turn.actionUsed).toBe(false);
  });

  it('undo of the attack brings back the attack owed', () => {
    const t = table(TAUNT);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: WON }, seededDice(4));
    const owed = t.now.followUp;
    t.run({ type: 'attack', actor: 'cultist', target: 'aldric', dice: { actor: [3, 2], reactor: [9, 8] } });
    t.run({ type: 'undo', actor: 'gm' });
    expect(t.now.followUp).toEqual(owed);
  });

  it('a lost interaction neither escalates nor draws an attack', () => {
    const t = table(TAUNT);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: LOST });
    expect(t.now.clock.stage).toBe('non-violent');
    expect(t.now.followUp ?? null).toBeNull();
  });

  it('works only with its skill', () => {
    const t = table(TAUNT);
    t.refuse({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Longsword', abilities: ['Taunt'], dice: WON }, 'ability-not-applicable', /"What Special Abilities Can Do"/);
  });

  it('the GM may move the table on: the attack owed lapses, with a line saying so', () => {
    const t = table(TAUNT);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: WON }, seededDice(4));
    const events = t.run({ type: 'end-encounter', actor: 'gm' });
    const ended = events.find((e) => e.type === 'follow-up-ended')!;
    expect(ended).toMatchObject({ taken: false });
    expect(describeEvent(ended, t.now).join(' ')).toMatch(/Taunt's follow-up from Cultist to Aldric lapses/);
  });
});

describe('Misdirection (personae-core-2011.txt "What Special Abilities Can Do")', () => {
  it("a won interaction offers a follow-up challenge, whose answer rerolls one die below the highest, keeping the second result", () => {
    const t = table(MISDIRECTION);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Misdirection'], dice: WON });
    expect(t.now.followUp).toMatchObject({ kind: 'misdirection', actor: 'aldric', reactor: 'cultist', reroll: { dice: 1, keep: 'second', mayTouchHighest: false } });
    // Follow-up: Aldric 3, 2 + 3; the cultist 8, 7 + 2 must reroll its 7 (not the 8) and keeps the 1: 8, 1.
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [3, 2], reactor: [8, 7], extra: [1] } });
    const c = t.events('challenge-resolved').at(-1)!;
    expect(c.result.reactor.rerolls).toMatchObject([{ kind: 'forced', old: 7, new: 1, kept: 1, source: 'Misdirection (follow-up)' }]);
    expect(c.result.reactor.dice).toEqual([8, 1]);
    expect(c.notes.join(' ')).toMatch(/Follow-up challenge from Misdirection/);
    expect(t.now.followUp).toBeNull();
  });

  it('in a violent encounter the follow-up spends no second action', () => {
    const t = table(MISDIRECTION);
    t.run({ type: 'escalate', actor: 'gm', to: 'violent' }, seededDice(2));
    t.turnOf('aldric');
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Misdirection'], dice: WON });
    expect(t.now.combat!.turn.actionUsed).toBe(true);
    const events = t.run({ type: 'attack', actor: 'aldric', target: 'cultist', dice: { actor: [5, 4, 3], reactor: [2, 1], extra: [1] } });
    expect(events.find((e) => e.type === 'action-taken')).toMatchObject({ usesAction: false });
    // Without Misdirection the same attack would be a second action.
    t.refuse({ type: 'attack', actor: 'aldric', target: 'cultist' }, 'action-used');
  });

  it('lapses when anything else comes first: the next challenge is rolled as usual', () => {
    const t = table(MISDIRECTION);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Misdirection'], dice: WON });
    const events = t.run({ type: 'interact', actor: 'cultist', target: 'aldric', skill: 'Magic', dice: { actor: [1, 1, 1], reactor: [9, 8] } });
    expect(events[0]).toMatchObject({ type: 'follow-up-ended', taken: false });
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: { actor: [3, 2], reactor: [8, 7] } });
    expect(t.events('challenge-resolved').at(-1)!.result.reactor.rerolls).toEqual([]);
  });

  it('a lost interaction offers nothing', () => {
    const t = table(MISDIRECTION);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Misdirection'], dice: LOST });
    expect(t.now.followUp ?? null).toBeNull();
  });
});

describe('what players see of a follow-up', () => {
  it("the ability is its owner's: the owed attack shows when the taunter is seen, and a hidden owner's follow-up not at all", () => {
    const t = table(TAUNT);
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', abilities: ['Taunt'], dice: WON }, seededDice(4));
    const pending = t.events('follow-up-pending').at(-1)!;
    // The taunted cultist hidden from the player: Aldric's Taunt and what it draws are still the player's to see.
    expect(publicEncounterEvent(pending, new Set(['cultist']), t.now.options, t.now)).toBe(pending);
    expect(publicEncounterEvent(pending, new Set(['aldric']), t.now.options, t.now)).toBeNull();
    expect(describeSnapshot(t.now).join(' ')).toMatch(/Cultist owes Aldric an immediate attack \(Taunt\)/);
  });
});
