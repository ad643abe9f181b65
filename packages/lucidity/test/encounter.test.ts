import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findRuleset, logAt, logEntries, type Actor } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import { parse } from 'yaml';
import {
  decideEncounter,
  evolveEncounter,
  initialEncounter,
  lucidityDecider,
  lucidityRuleset,
  parseEncounterCommand,
  parseLucidityScenario,
  redactEncounterEvent,
  runLucidityScenario,
  viewEncounter,
  type LucidityCommandInput,
  type LucidityTableState,
} from '../src';
import { decideRecorded, parseRecorded } from './recorded';

const root = join(import.meta.dirname, '../../..');
const GM: Actor = { role: 'gm', participantId: 'gm' };
const P1: Actor = { role: 'player', participantId: 'p1' };
const sheet = parse(readFileSync(join(root, 'examples/lucidity/characters/ana-vell.yaml'), 'utf8'));
const bandit = { name: 'Bandit', attributes: { STR: 1, DEX: 1, AWA: 0 }, defense: 11, protection: 2, health: 9, weapons: [{ name: 'Club', damage: '1d6' }] };
const archer = { name: 'Archer', attributes: { DEX: 2, AWA: -1 }, health: 6, weapons: [{ name: 'Shortbow', damage: '1d6', attribute: 'DEX', kind: 'ranged' }] };

function apply(state: LucidityTableState, raw: LucidityCommandInput, actor: Actor = GM, dice = seededDice(1)): LucidityTableState {
  const parsed = parseRecorded(raw);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const events = decideRecorded(state, parsed.command, { actor, dice, now: '2026-01-01T00:00:00Z' });
  return events.reduce((s, e) => evolveEncounter(s, JSON.parse(JSON.stringify(e))), state);
}

function setup(): LucidityTableState {
  let s = initialEncounter();
  s = apply(s, { type: 'add', id: 'ana', side: 'party', controller: 'p1', sheet });
  s = apply(s, { type: 'add', id: 'bandit', side: 'foe', statBlock: bandit });
  s = apply(s, { type: 'add', id: 'archer', side: 'foe', hidden: true, statBlock: archer });
  return apply(s, { type: 'start', dice: { ana: 12, bandit: 8, archer: 5 } });
}

describe('encounters ("Actions", "Action Options", "How Combat Works")', () => {
  it('initiative is d20 + AWA, highest first', () => {
    expect(setup().game.order).toEqual(['ana', 'bandit', 'archer']);
  });
  it('a turn is the move action and 2 actions: a melee attack costs 2, so a second one is refused and nothing changes', () => {
    let s = setup();
    s = apply(s, { type: 'attack', actor: 'ana', target: 'bandit', d20: 3 }, P1);
    expect(s.game.combatants.ana!.actions).toBe(0);
    const before = JSON.stringify(s);
    expect(() => apply(s, { type: 'attack', actor: 'ana', target: 'bandit', d20: 3 }, P1)).toThrow(/1 action\(s\) left|0 action\(s\) left/);
    expect(JSON.stringify(s)).toBe(before);
  });
  it('the move action comes first, then moving costs an action', () => {
    let s = setup();
    s = apply(s, { type: 'move', actor: 'ana' }, P1);
    expect(s.game.combatants.ana).toMatchObject({ moveAction: false, actions: 2 });
    s = apply(s, { type: 'move', actor: 'ana', careful: true }, P1);
    expect(s.game.combatants.ana).toMatchObject({ actions: 1 });
  });
  it('a player commands only their own character, and only on its turn', () => {
    const s = setup();
    expect(() => apply(s, { type: 'attack', actor: 'bandit', target: 'ana', d20: 3 }, P1)).toThrow(/do not command Bandit/);
    expect(() => apply(s, { type: 'end-turn' }, { role: 'player', participantId: 'p2' })).toThrow(/do not command/);
    const s2 = apply(s, { type: 'end-turn' }, P1);
    expect(() => apply(s2, { type: 'move', actor: 'ana' }, P1)).toThrow(/not Ana Vell's turn/);
  });
  it('Help gives a buff to the next roll of its target; the buff die is used and then gone', () => {
    let s = setup();
    s = apply(s, { type: 'help', actor: 'ana', target: 'ana', kind: 'buff' }, P1);
    expect(s.game.combatants.ana!.pendingBuffs).toBe(1);
    // d20 4 + STR 2 + Swords 3 + buff d6 2 = 11: not above Defense 11
    s = apply(s, { type: 'roll', actor: 'ana', attribute: 'STR', skill: 'Swords', target: 11, d20: 4, buffDice: [2] }, P1);
    const last = logAt(s.log, -1)!;
    expect(last.type === 'rolled' && last.data.roll.total).toBe(11);
    expect(s.game.combatants.ana!.pendingBuffs).toBe(0);
  });
  it('opportunity attacks cost no action, once per round', () => {
    let s = setup();
    s = apply(s, { type: 'attack', actor: 'bandit', target: 'ana', d20: 2, reaction: 'opportunity' });
    expect(s.game.combatants.bandit!.opportunityRound).toBe(1);
    expect(() => apply(s, { type: 'attack', actor: 'bandit', target: 'ana', d20: 2, reaction: 'opportunity' })).toThrow(/already made an opportunity/);
  });
  it('ready sets actions aside for a trigger; a readied attack spends them out of turn', () => {
    let s = setup();
    s = apply(s, { type: 'ready', actor: 'ana', actions: 2, trigger: 'when the bandit steps in' }, P1);
    s = apply(s, { type: 'end-turn' }, P1);
    s = apply(s, { type: 'attack', actor: 'ana', target: 'bandit', d20: 1, reaction: 'readied' }, P1);
    expect(s.game.combatants.ana!.readied).toBeNull();
  });
  it('undo takes back the last entry and redo brings it back; the fold is the same as before', () => {
    const s0 = setup();
    const s1 = apply(s0, { type: 'attack', actor: 'ana', target: 'bandit', d20: 10, damageDice: [5] }, P1);
    expect(s1.game.combatants.bandit!.health).toBe(4);
    const s2 = apply(s1, { type: 'undo', seen: s1.log.length });
    expect(s2.game).toEqual(s0.game);
    const s3 = apply(s2, { type: 'redo', seen: s2.log.length });
    expect(s3.game).toEqual(s1.game);
    expect(() => apply(s3, { type: 'undo', seen: s3.log.length }, P1)).toThrow(/only the GM can undo/);
  });
  it('players never see the hidden archer: not in the view, not in its events', () => {
    let s = setup();
    const view = viewEncounter(s, P1);
    expect(view.combatants.map((c) => c.id)).toEqual(['ana', 'bandit']);
    expect(JSON.stringify(view)).not.toMatch(/archer|Archer/);
    s = apply(s, { type: 'end-turn' }, P1);
    s = apply(s, { type: 'end-turn' });
    const before = s;
    s = apply(s, { type: 'attack', actor: 'archer', target: 'ana', d20: 11, damageDice: [2] });
    const event = logAt(s.log, -1)!;
    const seen = redactEncounterEvent(event, P1, s);
    expect(JSON.stringify(seen)).not.toMatch(/archer|Archer|Shortbow/);
    expect(seen?.type === 'attacked' && seen.data.damageTaken).toBe(1);
    expect(redactEncounterEvent(event, GM, s)).toEqual(event);
    void before;
  });
  it('a player sees a foe without its Health', () => {
    const bandit = viewEncounter(setup(), P1).combatants.find((c) => c.id === 'bandit')!;
    expect(bandit).not.toHaveProperty('health');
  });
  it('a refused command names the field: an unknown weapon', () => {
    expect(() => apply(setup(), { type: 'attack', actor: 'ana', target: 'bandit', weapon: 'Halberd' }, P1)).toThrow(/weapon: Ana Vell has no weapon "Halberd"/);
  });
  it('property: replaying the stored events gives the same state, whatever the dice', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const dice = seededDice(seed);
        let s = setup();
        const script: [LucidityCommandInput, Actor][] = [
          [{ type: 'attack', actor: 'ana', target: 'bandit' }, P1],
          [{ type: 'end-turn' }, P1],
          [{ type: 'attack', actor: 'bandit', target: 'ana' }, GM],
          [{ type: 'end-turn' }, GM],
          [{ type: 'attack', actor: 'archer', target: 'ana' }, GM],
          [{ type: 'end-turn' }, GM],
        ];
        for (const [c, a] of script) s = apply(s, c, a, dice);
        let replay = initialEncounter();
        for (const e of logEntries(s.log)) replay = evolveEncounter(replay, JSON.parse(JSON.stringify(e)));
        expect(replay).toEqual(s);
        expect(s.game.round).toBe(2);
      }),
      { numRuns: 30 },
    );
  });
});

describe('scenario files', () => {
  it('examples/lucidity/scenarios/bandit-on-the-road.yaml plays through and meets its expectations', () => {
    const file = join(root, 'examples/lucidity/scenarios/bandit-on-the-road.yaml');
    const scenario = parseLucidityScenario(readFileSync(file, 'utf8'));
    const run = runLucidityScenario(scenario, (p) => parse(readFileSync(join(root, 'examples/lucidity/scenarios', p), 'utf8')), givenDice([]));
    expect(run.error).toBeUndefined();
    expect(run.unmet).toEqual([]);
    expect(run.state.game.combatants.ana!.injuries).toEqual(['major-wound']);
  });
  it('an unmet expectation is reported', () => {
    const scenario = parseLucidityScenario(
      ['ruleset: lucidity', 'characters:', '  - { id: b, side: foe, statBlock: { name: B, health: 5 } }', 'expect:', '  - { id: b, health: 4 }'].join('\n'),
    );
    expect(runLucidityScenario(scenario, () => ({}), seededDice(1)).unmet).toEqual(['expected b health 4, got 5']);
  });
});

describe('the ruleset seam', () => {
  it('lucidityRuleset is registered with core and hosts the table decider', () => {
    expect(findRuleset('lucidity')).toBe(lucidityRuleset);
    expect(lucidityRuleset.table).toBeDefined();
    const r = lucidityRuleset.sheet.check(sheet);
    expect(r.ok && r.derived.maxLucidity).toBe(14);
    const d = lucidityDecider();
    expect(d.parseCommand({ type: 'fly' }).ok).toBe(false);
  });
});

describe('encounter rolls and moves', () => {
  it('Charm/Deceive: CHA -1 + Charm 1 against the bandit\'s AWA 0: target 10; d20 10 -> 10 fails', () => {
    const s = apply(setup(), { type: 'roll', actor: 'ana', attribute: 'CHA', skill: 'Charm', against: { id: 'bandit', attribute: 'AWA' }, cost: 1, d20: 10 }, P1);
    const e = logAt(s.log, -1)!;
    expect(e.type === 'rolled' && [e.data.roll.total, e.data.roll.target, e.data.roll.success]).toEqual([10, 10, false]);
    expect(s.game.combatants.ana!.actions).toBe(1);
  });
  it('moving carefully while standing from Prone: 5 ft once halved from 10, or 2 ft when halvings stack', () => {
    const s = apply(setup(), { type: 'move', actor: 'ana', careful: true, standing: true, prone: true }, P1);
    const e = logAt(s.log, -1)!;
    expect(e.type === 'moved' && e.data.feet).toBe(5);
    let t = initialEncounter('standard', { halfMoveStacking: 'stack' });
    t = apply(t, { type: 'add', id: 'ana', side: 'party', controller: 'p1', sheet });
    t = apply(t, { type: 'start', dice: { ana: 5 } });
    t = apply(t, { type: 'move', actor: 'ana', careful: true, standing: true }, P1);
    const m = logAt(t.log, -1)!;
    expect(m.type === 'moved' && m.data.feet).toBe(7);
  });
});

describe('a taken id gives a player nothing about hidden combatants', () => {
  const refusal = (state: LucidityTableState, raw: LucidityCommandInput, actor: Actor) => {
    try {
      apply(state, raw, actor);
      return 'accepted';
    } catch (e) {
      const r = e as { code: string; field?: string; message: string };
      return { code: r.code, field: r.field, message: r.message };
    }
  };
  it("a player's new character gets an id in their seat's space: a hidden combatant's id, a visible one's and a free one are answered alike", () => {
    let s = initialEncounter();
    s = apply(s, { type: 'add', id: 'bandit', side: 'foe', statBlock: bandit });
    s = apply(s, { type: 'add', id: 'lurker', side: 'foe', hidden: true, statBlock: archer });
    const added = (id: string) => {
      const parsed = parseEncounterCommand({ type: 'add', id, side: 'party', sheet });
      if (!parsed.ok) throw new Error(parsed.error.message);
      return decideEncounter(s, parsed.command, { actor: P1, dice: seededDice(1), now: '' });
    };
    expect(JSON.stringify(added('lurker')).replaceAll('lurker', 'ID')).toBe(JSON.stringify(added('bandit')).replaceAll('bandit', 'ID'));
    expect(JSON.stringify(added('lurker')).replaceAll('lurker', 'ID')).toBe(JSON.stringify(added('free')).replaceAll('free', 'ID'));
    expect(added('lurker')[0]).toMatchObject({ type: 'combatant-added', data: { combatant: { id: `${P1.participantId}:lurker`, controller: P1.participantId } } });
    // Only a combatant from the player's own seat can hold an id in it.
    const withAna = apply(s, { type: 'add', id: 'ana', side: 'party', sheet }, P1);
    expect(refusal(withAna, { type: 'add', id: 'ana', side: 'party', sheet }, P1)).toMatchObject({ code: 'lucidity.duplicate', message: expect.stringContaining(`"${P1.participantId}:ana"`) });
    // No one chooses an id in a seat's space; the GM is told plainly of a duplicate.
    expect(refusal(s, { type: 'add', id: 'p9:x', side: 'foe', statBlock: archer }, GM)).toMatchObject({ code: 'bad-id', field: 'id' });
    expect(refusal(s, { type: 'add', id: 'p9:x', side: 'party', sheet }, P1)).toMatchObject({ code: 'bad-id', field: 'id' });
    expect(refusal(s, { type: 'add', id: 'lurker', side: 'foe', statBlock: archer }, GM)).toMatchObject({ code: 'lucidity.duplicate' });
  });
});
