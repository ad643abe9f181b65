import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Actor } from '@personae/core';
import { givenDice, seededDice, type DiceSource } from '@personae/dice';
import { attackOdds, attackSpec, commandSchema, declaredAttackOdds, decideEncounter, evolveEncounter, initialEncounter, viewEncounter, type EncounterState } from '../src';

// The encounter view carries what a viewer needs to work out an attack's exact odds before rolling
// (d100-combat-rules.txt, "Combat Structure"), and nothing of a hidden GM character.
const root = join(import.meta.dirname, '../../..');
const sheet = (f: string) => parse(readFileSync(join(root, 'examples/d100', f), 'utf8'));
const GM: Actor = { role: 'gm', participantId: 'gm' };
const PLAYER: Actor = { role: 'player', participantId: 'makoto' };

function run(state: EncounterState, raw: unknown, actor: Actor = GM, dice: DiceSource = givenDice([])): EncounterState {
  const cmd = commandSchema.parse(raw);
  return decideEncounter(state, cmd, { actor, dice, now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, state);
}

function table(options: Record<string, unknown> = {}): EncounterState {
  let s = initialEncounter('seed', options);
  s = run(s, { type: 'add-character', id: 'makoto', sheet: sheet('evoker-makoto.yaml') });
  s = run(s, { type: 'add-character', id: 'pixie', sheet: { ...sheet('shadow-pixie.yaml'), hidden: false, name: 'Open Pixie' } });
  s = run(s, { type: 'add-character', id: 'lurker', sheet: sheet('shadow-pixie.yaml') });
  return s;
}

describe('the encounter view and the odds a viewer works out from it', () => {
  const cmd = commandSchema.parse({ type: 'attack', attacker: 'makoto', defender: 'pixie', weapon: 'Agi' }) as Extract<ReturnType<typeof commandSchema.parse>, { type: 'attack' }>;
  const oddsFromView = (s: EncounterState) => {
    const view = viewEncounter(s, PLAYER);
    const fromView = {
      options: view.options,
      oneMore: view.oneMore,
      fighters: Object.fromEntries(view.characters.map((c) => [c.id, c.fighter])),
      sheets: Object.fromEntries(view.characters.map((c) => [c.id, c.sheet!])),
    };
    return declaredAttackOdds(JSON.parse(JSON.stringify(fromView)), cmd);
  };
  it('the odds from the view equal the odds from the full state for the same declared attack', () => {
    // affinityReveal=open: the player is shown the Pixie's affinities; detailsReveal=open: its Scores and wounds
    const s = table({ affinityReveal: 'open', detailsReveal: 'open' });
    const expected = attackOdds(s.fighters.makoto!, s.fighters.pixie!, attackSpec(s, cmd), s.options);
    const got = oddsFromView(s);
    expect(got).toEqual(expected);
    // Fire against the Pixie's weakness: every hit wounds it
    expect(got.hit).toBeGreaterThan(0);
    expect(Object.values(got.wounds).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
  it('an affinity the player has not learnt counts as Normal in the odds it is shown', () => {
    const s = table({ detailsReveal: 'open' });
    const normal = { ...s.fighters.pixie!, affinities: {} };
    expect(oddsFromView(s)).toEqual(attackOdds(s.fighters.makoto!, normal, attackSpec(s, cmd), s.options));
    expect(oddsFromView(s)).not.toEqual(attackOdds(s.fighters.makoto!, s.fighters.pixie!, attackSpec(s, cmd), s.options));
  });
  it('a player is shown no hidden GM character: not in the list, the order, its sheet or its fighter', () => {
    const s = run(table(), { type: 'start' }, GM, seededDice(3));
    const text = JSON.stringify(viewEncounter(s, PLAYER));
    expect(text).not.toContain('lurker');
    expect(text).toContain('Open Pixie');
    const gmText = JSON.stringify(viewEncounter(s, GM));
    expect(gmText).toContain('lurker');
  });
  it('odds for a character the viewer is not shown are refused by name, never guessed', () => {
    const view = viewEncounter(table(), PLAYER);
    const cmd = commandSchema.parse({ type: 'attack', attacker: 'makoto', defender: 'lurker' }) as Extract<ReturnType<typeof commandSchema.parse>, { type: 'attack' }>;
    const partial = { options: view.options, oneMore: view.oneMore, fighters: Object.fromEntries(view.characters.map((c) => [c.id, c.fighter])), sheets: Object.fromEntries(view.characters.map((c) => [c.id, c.sheet!])) };
    expect(() => declaredAttackOdds(partial as unknown as Parameters<typeof declaredAttackOdds>[0], cmd)).toThrow(/defender: no character "lurker"/);
  });
});

describe('the log a view carries', () => {
  it('holds the events in effect, without those that mention a hidden GM character for a player', () => {
    let s = run(table(), { type: 'start' }, GM, seededDice(3));
    s = run(s, { type: 'inflict-ailment', target: 'lurker', ailment: 'burning' });
    s = run(s, { type: 'inflict-ailment', target: 'pixie', ailment: 'burning' });
    const player = viewEncounter(s, PLAYER);
    expect(player.log.map((e) => e.type)).toContain('ailment-inflicted');
    expect(JSON.stringify(player.log)).not.toContain('lurker');
    // Nothing counts what the player may not see: every event shown, none omitted.
    expect(player.logOmitted).toBe(0);
    expect(viewEncounter(s, GM).log.length).toBeGreaterThan(player.log.length);
    expect(viewEncounter(s, GM).log.filter((e) => e.type === 'ailment-inflicted')).toHaveLength(2);
    s = run(s, { type: 'undo', seen: s.seq });
    expect(viewEncounter(s, GM).log.filter((e) => e.type === 'ailment-inflicted')).toHaveLength(1);
  });
});
