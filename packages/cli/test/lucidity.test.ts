import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './helpers';

describe('personae lucidity roll (lucidity-primary-character.txt "Buffs and Breaks")', () => {
  it('d20 12 + 3 with buffs 5 and 2: the highest buff die, 5: total 20 beats 18', async () => {
    const out = await cliJson('lucidity', 'roll', '--d20', '12', '--modifier', '3', '--buff', '5,2', '--target', '18', '--json');
    expect(out).toMatchObject({ total: 20, success: true, buffBreak: 5 });
  });
  it('a negative modifier and a break: 10 - 2 - 4 = 4 does not beat 4', async () => {
    const out = await cliJson('lucidity', 'roll', '--d20', '10', '--modifier', '-2', '--break', '4,1', '--target', '4', '--json');
    expect(out).toMatchObject({ total: 4, success: false, buffBreak: -4 });
  });
  it('one buff and one break cancel: nothing added', async () => {
    expect(await cliJson('lucidity', 'roll', '--d20', '9', '--buff', '6', '--break', '1', '--target', '9', '--json')).toMatchObject({ total: 9, success: false });
  });
  it('--option successOn=meet makes 9 against 9 a success', async () => {
    expect(await cliJson('lucidity', 'roll', '--d20', '9', '--target', '9', '--option', 'successOn=meet', '--json')).toMatchObject({ success: true });
  });
  it('refuses a d6 of 7 and a d20 of 0 with exit code 2 and a line naming the flag', async () => {
    const a = await cli('lucidity', 'roll', '--d20', '10', '--buff', '7', '--target', '9', '--json');
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/--buff: "7" is not a d6 result/);
    const b = await cli('lucidity', 'roll', '--d20', '0', '--target', '9');
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--d20/);
  });
  it('rolls a missing d20 with --seed the same way twice', async () => {
    const a = await cliJson('lucidity', 'roll', '--target', '10', '--buffs', '2', '--seed', '7', '--json');
    const b = await cliJson('lucidity', 'roll', '--target', '10', '--buffs', '2', '--seed', '7', '--json');
    expect(a).toEqual(b);
    expect((a.buffDice as number[]).length).toBe(2);
  });
});

describe('personae lucidity lucidity-roll ("Lucidity")', () => {
  it('Current Lucidity 14 + attribute 1: a 15 succeeds and leaves 13', async () => {
    expect(await cliJson('lucidity', 'lucidity-roll', '--d20', '15', '--current', '14', '--attribute', '1', '--json')).toMatchObject({ success: true, lucidityAfter: 13 });
  });
  it('a 16 fails and Lucidity stays 14', async () => {
    expect(await cliJson('lucidity', 'lucidity-roll', '--d20', '16', '--current', '14', '--attribute', '1', '--json')).toMatchObject({ success: false, lucidityAfter: 14 });
  });
  it('without --attribute the target is Current Lucidity: 5 against 5 succeeds, 5 -> 4', async () => {
    expect(await cliJson('lucidity', 'lucidity-roll', '--d20', '5', '--current', '5', '--json')).toMatchObject({ success: true, lucidityAfter: 4 });
  });
  it('a negative attribute lowers the target: 12 - 2 = 10, a 11 fails', async () => {
    expect(await cliJson('lucidity', 'lucidity-roll', '--d20', '11', '--current', '12', '--attribute', '-2', '--json')).toMatchObject({ success: false, lucidityAfter: 12 });
  });
});

describe('personae lucidity attack ("How Combat Works")', () => {
  it('17 against 12: Penetration 5 uses up Protection 3: the full 6 damage', async () => {
    expect(await cliJson('lucidity', 'attack', '--attack', '17', '--defense', '12', '--damage', '6', '--protection', '3', '--json')).toMatchObject({ hit: true, penetration: 5, damageTaken: 6 });
  });
  it('14 against 13: Protection 9 - 1 = 8 is double damage 4: nothing', async () => {
    expect(await cliJson('lucidity', 'attack', '--attack', '14', '--defense', '13', '--damage', '4', '--protection', '9', '--json')).toMatchObject({ hit: true, penetration: 1, damageTaken: 0 });
  });
  it('a tie misses', async () => {
    expect(await cliJson('lucidity', 'attack', '--attack', '13', '--defense', '13', '--damage', '4', '--protection', '0', '--json')).toMatchObject({ hit: false, penetration: 0, damageTaken: 0 });
  });
  it('--option protectionPipeline=double-deduction: 10 - 4 = 6, then 6 - 4 = 2', async () => {
    const out = await cliJson('lucidity', 'attack', '--attack', '15', '--defense', '13', '--damage', '10', '--protection', '6', '--option', 'protectionPipeline=double-deduction', '--json');
    expect(out).toMatchObject({ hit: true, penetration: 2, damageTaken: 2 });
  });
  it('an unknown option is refused naming it', async () => {
    const r = await cli('lucidity', 'attack', '--attack', '15', '--defense', '13', '--damage', '10', '--protection', '6', '--option', 'armour=heavy');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option "armour"/);
  });
});

describe('personae lucidity sheet check', () => {
  it('prints the derived values of a legal sheet', async () => {
    const out = await cliJson('lucidity', 'sheet', 'check', 'examples/lucidity/characters/ana-vell.yaml', '--json');
    expect(out).toMatchObject({ legal: true, maxLucidity: 14, maxHealth: 7, maxEnergy: 6, itemSlots: 22, designatedItems: 3, defense: 12 });
  });
  it('prints the problems of an illegal sheet and exits 1', async () => {
    const r = await cli('lucidity', 'sheet', 'check', 'examples/lucidity/illegal/too-many-skill-points.yaml', '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { legal: boolean; problems: { field: string }[] };
    expect(out.legal).toBe(false);
    expect(out.problems.map((p) => p.field)).toContain('skills');
  });
  it('a missing file exits 2 with one line', async () => {
    const r = await cli('lucidity', 'sheet', 'check', 'examples/lucidity/nope.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file/);
  });
});

describe('personae lucidity odds', () => {
  it('d20 against 10 with one buff: 81/120', async () => {
    const out = await cliJson('lucidity', 'odds', 'roll', '--target', '10', '--buffs', '1', '--json');
    expect(out.chance as number).toBeCloseTo(81 / 120, 12);
  });
  it('Lucidity 10 + 2: 12 in 20', async () => {
    expect((await cliJson('lucidity', 'odds', 'lucidity-roll', '--current', '10', '--attribute', '2', '--json')).chance as number).toBeCloseTo(0.6, 12);
  });
  it('attack +5 against 15, 6 damage, no Protection: half the time 6', async () => {
    const out = await cliJson('lucidity', 'odds', 'attack', '--modifier', '5', '--defense', '15', '--damage', '6', '--protection', '0', '--json');
    expect(out.hit as number).toBeCloseTo(0.5, 12);
    expect(out.expectedDamage as number).toBeCloseTo(3, 12);
  });
});

describe('personae replay with ruleset: lucidity', () => {
  it('replays the example scenario and prints the events and the GM view', async () => {
    const out = await cliJson('replay', 'examples/lucidity/scenarios/bandit-on-the-road.yaml', '--json');
    expect(out.ruleset).toBe('lucidity');
    expect((out.events as unknown[]).length).toBe(14);
    const state = out.state as { round: number; combatants: { id: string; health?: number }[] };
    expect(state.round).toBe(3);
    expect(state.combatants.find((c) => c.id === 'bandit')?.health).toBe(4);
  });
  it('prints each step in words', async () => {
    const r = await cli('replay', 'examples/lucidity/scenarios/bandit-on-the-road.yaml');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('d20 10 +2 STR +3 Swords = 15 against 11: hit, Penetration 6');
    expect(r.stdout).toContain('every expectation met');
  });
  it('an unknown ruleset is refused naming it', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'luc-')), 's.yaml');
    writeFileSync(file, 'ruleset: chess\n');
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown ruleset "chess"/);
  });
});
