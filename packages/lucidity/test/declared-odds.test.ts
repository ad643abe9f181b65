import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Actor } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import { decideEncounter, declaredAttackOdds, evolveEncounter, initialEncounter, optionsOf, parseEncounterCommand, viewEncounter, type LucidityCommandInput, type LucidityTableState } from '../src';
import { decideRecorded, parseRecorded } from './recorded';

// "How Combat Works", "Buffs and Breaks": the exact odds of a declared attack equal a count of every
// d20 face, buff/break d6 and damage die run through the encounter's own attack command.
const root = join(import.meta.dirname, '../../..');
const GM: Actor = { role: 'gm', participantId: 'gm' };
const P1: Actor = { role: 'player', participantId: 'p1' };
const ana = parse(readFileSync(join(root, 'examples/lucidity/characters/ana-vell.yaml'), 'utf8'));
const bandit = { name: 'Bandit', attributes: { STR: 1, DEX: 1, AWA: 0 }, defense: 11, protection: 2, shieldProtection: 1, health: 30, weapons: [{ name: 'Club', damage: '1d6' }] };

function apply(state: LucidityTableState, raw: LucidityCommandInput, actor: Actor = GM): LucidityTableState {
  const parsed = parseRecorded(raw);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return decideRecorded(state, parsed.command, { actor, dice: seededDice(1), now: '2026-01-01T00:00:00Z' }).reduce(evolveEncounter, state);
}

function setup(overrides: Record<string, unknown> = {}): LucidityTableState {
  let s = initialEncounter('standard', overrides);
  s = apply(s, { type: 'add', id: 'ana', side: 'party', controller: 'p1', sheet: ana });
  s = apply(s, { type: 'add', id: 'bandit', side: 'foe', statBlock: bandit });
  return apply(s, { type: 'start', dice: { ana: 15, bandit: 2 } });
}

function bruteForce(s: LucidityTableState, buffs: number, breaks: number, extra: Record<string, unknown> = {}): Map<number, number> & { hit?: number } {
  const out: Map<number, number> & { hit?: number } = new Map<number, number>();
  out.hit = 0;
  const d6 = [1, 2, 3, 4, 5, 6];
  const buffSets = buffs ? d6.map((x) => [x]) : [[]];
  const breakSets = breaks ? d6.map((x) => [x]) : [[]];
  const n = 20 * buffSets.length * breakSets.length * 8;
  for (let d20 = 1; d20 <= 20; d20++)
    for (const buffDice of buffSets)
      for (const breakDice of breakSets)
        for (let dmg = 1; dmg <= 8; dmg++) {
          const parsed = parseRecorded({ type: 'attack', actor: 'ana', target: 'bandit', d20, buffs, breaks, buffDice, breakDice, ...extra });
          if (!parsed.ok) throw new Error(parsed.error.message);
          // The damage die is only drawn on a hit; a miss leaves it unused, so it is handed out by the source.
          const [e] = decideRecorded(s, parsed.command, { actor: P1, dice: givenDice([dmg]), now: '2026-01-01T00:00:00Z' }) as unknown as [{ type: string; data: { damageTaken: number; hit: boolean } }];
          if (e.data.hit) out.hit! += 1 / n;
          out.set(e.data.damageTaken, (out.get(e.data.damageTaken) ?? 0) + 1 / n);
        }
  return out;
}

describe('exact odds of a declared attack', () => {
  for (const [buffs, breaks] of [[0, 0], [1, 0], [1, 1], [0, 1]] as const) {
    it(`Ana's longsword against the Bandit with ${buffs} buff(s) and ${breaks} break(s) matches every die counted through the attack command`, () => {
      const s = setup();
      const odds = declaredAttackOdds(s.game, { actor: 'ana', target: 'bandit', buffs, breaks }, optionsOf(s))!;
      const brute = bruteForce(s, buffs, breaks);
      expect(odds.damageTaken.reduce((n, r) => n + r.chance, 0)).toBeCloseTo(1, 12);
      for (const r of odds.damageTaken) expect(r.chance).toBeCloseTo(brute.get(r.damage) ?? 0, 12);
      expect([...brute.keys()].sort((a, b) => a - b)).toEqual(odds.damageTaken.map((r) => r.damage));
      expect(odds.hit).toBeCloseTo(brute.hit!, 12);
    });
  }
  // "Lucidity": a Lucidity roll may stand in for the attack roll (option lucidityOnAttack).
  for (const [reading, buffs, breaks] of [['bare-hit', 0, 0], ['bare-hit', 1, 0], ['natural-20', 0, 1]] as const) {
    it(`a Lucidity roll in place of the attack (lucidityOnAttack=${reading}, ${buffs} buff(s), ${breaks} break(s)) matches every die counted through the attack command`, () => {
      const s = setup({ lucidityOnAttack: reading, criticalSuccess: 'natural-20', critEffect: 'max-damage' });
      const odds = declaredAttackOdds(s.game, { actor: 'ana', target: 'bandit', buffs, breaks, useLucidity: true }, optionsOf(s))!;
      const brute = bruteForce(s, buffs, breaks, { useLucidity: true });
      expect(odds.lucidityTarget).toBeGreaterThan(0);
      for (const r of odds.damageTaken) expect(r.chance).toBeCloseTo(brute.get(r.damage) ?? 0, 12);
      expect([...brute.keys()].sort((a, b) => a - b)).toEqual(odds.damageTaken.map((r) => r.damage));
      expect(odds.hit).toBeCloseTo(brute.hit!, 12);
      // The roll's chance is that of the Lucidity roll itself, whatever the Defense.
      expect(odds.hit).not.toBeCloseTo(declaredAttackOdds(s.game, { actor: 'ana', target: 'bandit', buffs, breaks }, optionsOf(s))!.hit, 6);
    });
  }
  it('a Lucidity roll in place of the attack is refused where the table does not allow it, as the command is', () => {
    const s = setup({ lucidityOnAttack: 'not-allowed' });
    expect(() => declaredAttackOdds(s.game, { actor: 'ana', target: 'bandit', buffs: 0, breaks: 0, useLucidity: true }, optionsOf(s))).toThrow(/lucidityOnAttack/);
  });
  it('a player works the odds out from the combatants their view shows, and is shown no foe whole', () => {
    const s = setup();
    const view = viewEncounter(s, P1);
    const shown = Object.fromEntries(view.combatants.flatMap((c) => ('combatant' in c && c.combatant ? [[c.id, c.combatant]] : [])));
    expect(Object.keys(shown)).toEqual(['ana']);
    const gmView = viewEncounter(s, GM);
    const all = Object.fromEntries(gmView.combatants.flatMap((c) => ('combatant' in c && c.combatant ? [[c.id, c.combatant]] : [])));
    const fromView = declaredAttackOdds({ combatants: all, round: gmView.round }, { actor: 'ana', target: 'bandit', buffs: 1 }, optionsOf(s));
    expect(fromView).toEqual(declaredAttackOdds(s.game, { actor: 'ana', target: 'bandit', buffs: 1 }, optionsOf(s)));
  });
});

describe('the log a view carries ("Minor Exploits", "Major Exploits")', () => {
  it('an exploit is a GM ruling in the log, and a hidden foe never appears in a player\'s log', () => {
    let s = setup();
    s = apply(s, { type: 'add', id: 'lurker', side: 'foe', hidden: true, statBlock: { name: 'Marsh Lurker', health: 5 } });
    s = apply(s, { type: 'exploit', actor: 'ana', target: 'bandit', kind: 'minor', success: true, ruling: 'the Bandit is knocked prone' });
    s = apply(s, { type: 'damage', target: 'lurker', amount: 2, reason: 'trap' });
    const player = viewEncounter(s, P1);
    expect(player.log.map((l) => l.text)).toContain('GM ruling, minor exploit by Ana Vell on Bandit: it happens: the Bandit is knocked prone');
    expect(JSON.stringify(player)).not.toContain('Lurker');
    expect(JSON.stringify(viewEncounter(s, GM).log)).toContain('Marsh Lurker');
  });
});
