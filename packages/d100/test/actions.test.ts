import { describe, expect, it } from 'vitest';
import type { Actor } from '@personae/core';
import { givenDice } from '@personae/dice';
import { decideEncounter, encounterDecider, evolveEncounter, groupsOf, initialEncounter, redactD100Event, viewEncounter, type EncounterCommand, type EncounterEvent, type EncounterState } from '../src';

/**
 * The actions of "Analysing Targets, Disrupting Targets and Tricks" (d100-combat-rules.txt) that the
 * encounter resolves, each with a situation worked by hand from the seed.
 */
const GM: Actor = { role: 'gm', participantId: 'gm' };
const P1: Actor = { role: 'player', participantId: 'p1' };
const base = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
/** A (played by p1) acts first: Agility Bonus 3 against B's 2. B is weak to Fire and absorbs Elec. */
const SHEETS = {
  a: { name: 'A', side: 'pc', arcanaLevel: 4, scores: base, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }, { name: 'Agi', class: 'magic', element: 'fire', damage: 4 }] },
  b: { name: 'B', kind: 'shadow', side: 'shadows', arcana: 'Magician', personality: 'Timid', scores: { ...base, agility: 20, toughness: 30 }, affinities: { fire: 'weak', elec: 'absorb' }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] },
};

function decide(state: EncounterState, command: Record<string, unknown>, dice: number[] = [], actor: Actor = GM): EncounterEvent[] {
  const parsed = encounterDecider.parseCommand(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  // the values stand in for the server's dice (a player may not enter the GM's)
  const given = givenDice(dice);
  return decideEncounter(state, parsed.command as EncounterCommand, { actor, dice: { kind: 'seeded', die: (sides) => given.die(sides) }, now: '' });
}
function run(state: EncounterState, command: Record<string, unknown>, dice: number[] = [], actor: Actor = GM): EncounterState {
  return decide(state, command, dice, actor).reduce(evolveEncounter, state);
}
function refusal(state: EncounterState, command: Record<string, unknown>, dice: number[] = [], actor: Actor = GM) {
  try {
    decide(state, command, dice, actor);
    return 'accepted';
  } catch (e) {
    const r = e as { code: string; field?: string; message: string; rule?: { section: string } };
    return { code: r.code, field: r.field, message: r.message, section: r.rule?.section };
  }
}
function table(sheets: Record<string, Record<string, unknown>> = SHEETS, options: Record<string, unknown> = {}): EncounterState {
  let s = initialEncounter('seed', options);
  s = run(s, { type: 'add-character', id: 'a', sheet: sheets.a, controller: 'p1' });
  for (const [id, sheet] of Object.entries(sheets)) if (id !== 'a') s = run(s, { type: 'add-character', id, sheet });
  return run(s, { type: 'start' });
}
const seen = (s: EncounterState, viewer: Actor, id: string) => viewEncounter(s, viewer).characters.find((c) => c.id === id)!;

describe('"Analysing Targets, Disrupting Targets and Tricks": Analyse Target', () => {
  it("hides an enemy's affinities, Arcana and Personality from the players until it is analysed", () => {
    const s = table();
    const before = seen(s, P1, 'b');
    expect(before.sheet!.affinities).toEqual({});
    expect(before.fighter.affinities).toEqual({});
    expect(before.sheet!.arcana).toBeUndefined();
    expect(before.sheet!.personality).toBeUndefined();
    expect(before.affinitiesKnown).toEqual([]);
    // nothing in the player's log carries them either
    const log = viewEncounter(s, P1).log;
    expect(JSON.stringify(log)).not.toMatch(/absorb|Magician|Timid/);
    // the GM sees them, and the party sees its own
    expect(seen(s, GM, 'b').sheet!.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    expect(seen(s, P1, 'a').affinitiesKnown).toBe('all');

    const after = run(s, { type: 'analyse', who: 'a', target: 'b' }, [], P1);
    const shown = seen(after, P1, 'b');
    expect(shown.sheet!.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    expect(shown.fighter.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    expect(shown.sheet!.arcana).toBe('Magician');
    expect(shown.analysed).toBe('basic');
    const added = groupsOf(after).flat().find((e) => e.type === 'character-added' && e.data.id === 'b')!;
    expect(JSON.stringify(redactD100Event(added, P1, after))).toContain('absorb');
    // undone, they are hidden again
    expect(seen(run(after, { type: 'undo', seen: after.seq }), P1, 'b').sheet!.affinities).toEqual({});
  });

  it('needs Arcana Level 4, and 7 for an Advanced Analyse Target; only an enemy in the fight', () => {
    const s = table();
    expect(refusal(s, { type: 'analyse', who: 'a', target: 'b', advanced: true }, [], P1)).toEqual({ code: 'arcana-level', field: 'who', message: "who: A's Arcana Level is 4; Advanced Analyse Target needs 7", section: 'Analysing Targets, Disrupting Targets and Tricks' });
    const low = table({ ...SHEETS, a: { ...SHEETS.a, arcanaLevel: 3 } });
    expect(refusal(low, { type: 'analyse', who: 'a', target: 'b' }, [], P1)).toMatchObject({ code: 'arcana-level', message: "who: A's Arcana Level is 3; Analyse Target needs 4" });
    const withAlly = table({ ...SHEETS, c: { name: 'C', side: 'pc', scores: { ...base, agility: 10, perception: 10 } } });
    expect(refusal(withAlly, { type: 'analyse', who: 'a', target: 'c' }, [], P1)).toMatchObject({ code: 'not-an-enemy', field: 'target' });
    // not on another character's turn
    expect(refusal(s, { type: 'analyse', who: 'b', target: 'a' })).toMatchObject({ code: 'not-your-turn' });
    const adv = run(table({ ...SHEETS, a: { ...SHEETS.a, arcanaLevel: 7 } }), { type: 'analyse', who: 'a', target: 'b', advanced: true }, [], P1);
    expect(seen(adv, P1, 'b').analysed).toBe('advanced');
  });

  it('a landed hit reveals the affinity to its element alone (option affinityReveal)', () => {
    // A's Agi: magic 40, roll 30 (1 DoS); B evades with Agility 20, rolls 50: fails. A hit, at the body (location roll 50).
    const hit = (options: Record<string, unknown>) => run(table(SHEETS, options), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [30, 50, 50], P1);
    const struck = hit({});
    expect(groupsOf(struck).flat().at(-1)).toMatchObject({ type: 'attack-resolved', data: { summary: { hit: true } } });
    expect(seen(struck, P1, 'b').sheet!.affinities).toEqual({ fire: 'weak' });
    expect(seen(struck, P1, 'b').affinitiesKnown).toEqual(['fire']);
    expect(seen(hit({ affinityReveal: 'analyse' }), P1, 'b').sheet!.affinities).toEqual({});
    expect(seen(table(SHEETS, { affinityReveal: 'open' }), P1, 'b').sheet!.affinities).toEqual({ fire: 'weak', elec: 'absorb' });
    // a miss reveals nothing: roll 60 fails against 40
    const missed = run(table(), { type: 'attack', attacker: 'a', defender: 'b', weapon: 'Agi' }, [60, 50], P1);
    expect(seen(missed, P1, 'b').sheet!.affinities).toEqual({});
  });
});
