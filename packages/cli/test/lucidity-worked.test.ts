// Worked situations for the Lucidity ruleset, computed by hand from lucidity-primary-character.txt and
// checked through the CLI the way an outside checker calls it. Where the seed is silent or
// contradicts itself the expected value follows the documented option default
// (docs/lucidity/options.md), named in the case.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, expectUsageError } from './helpers';

const roll = (...argv: string[]) => cliJson('lucidity', 'roll', ...argv, '--json');
const lucidityRoll = (...argv: string[]) => cliJson('lucidity', 'lucidity-roll', ...argv, '--json');
const attack = (a: number, d: number, dmg: number, p: number, ...more: string[]) =>
  cliJson('lucidity', 'attack', '--attack', String(a), '--defense', String(d), '--damage', String(dmg), '--protection', String(p), ...more, '--json');

describe('lucidity roll: d20 + modifier, buffs and breaks ("Buffs and Breaks"; successOn=exceed as in "How Combat Works")', () => {
  it('a total equal to the target fails by default and succeeds under successOn=meet; one more succeeds', async () => {
    expect(await roll('--d20', '12', '--target', '12')).toMatchObject({ total: 12, success: false });
    expect(await roll('--d20', '12', '--target', '12', '--option', 'successOn=meet')).toMatchObject({ total: 12, success: true });
    expect(await roll('--d20', '13', '--target', '12')).toMatchObject({ total: 13, success: true });
    expect(await roll('--d20', '10', '--modifier', '-3', '--target', '6')).toMatchObject({ total: 7, success: true });
  });

  it('a natural 20 succeeds whatever the total (criticalSuccess=natural-20); a natural 1 is only its number', async () => {
    expect(await roll('--d20', '20', '--target', '30')).toMatchObject({ total: 20, success: true, critical: true });
    expect(await roll('--d20', '20', '--modifier', '-5', '--target', '30', '--option', 'criticalSuccess=none')).toMatchObject({ total: 15, success: false });
    expect(await roll('--d20', '1', '--modifier', '20', '--target', '5')).toMatchObject({ total: 21, success: true });
    expect(await roll('--d20', '1', '--target', '5')).toMatchObject({ total: 1, success: false });
  });

  it('buffs and breaks cancel one for one; of the side left only the highest d6 counts', async () => {
    // One buff against one break: nothing is added, whatever the dice.
    expect(await roll('--d20', '10', '--buff', '4', '--break', '6', '--target', '12')).toMatchObject({ total: 10, success: false });
    expect(await roll('--d20', '10', '--buff', '2,6', '--break', '1,5', '--target', '12')).toMatchObject({ total: 10 });
    // Two buffs against one break leave one buff: +4 (both buff dice show 4, so no reading of which die stays matters).
    expect(await roll('--d20', '10', '--buff', '4,4', '--break', '2', '--target', '12')).toMatchObject({ total: 14, success: true });
    // Three buffs: the highest, not the sum.
    expect(await roll('--d20', '10', '--buff', '6,6,6', '--target', '12')).toMatchObject({ total: 16 });
    // Three breaks: minus the highest.
    expect(await roll('--d20', '10', '--break', '2,6,3', '--target', '12')).toMatchObject({ total: 4, success: false });
  });
});

describe('lucidity lucidity-roll ("Lucidity": d20 at or under Current Lucidity + attribute; a success spends 1)', () => {
  it('a die equal to the target succeeds and spends 1; one over fails and spends nothing', async () => {
    expect(await lucidityRoll('--d20', '15', '--current', '14', '--attribute', '1')).toMatchObject({ success: true, lucidityAfter: 13 });
    expect(await lucidityRoll('--d20', '16', '--current', '14', '--attribute', '1')).toMatchObject({ success: false, lucidityAfter: 14, missedBy: 1 });
    expect(await lucidityRoll('--d20', '11', '--current', '14', '--attribute', '-3')).toMatchObject({ success: true, lucidityAfter: 13 });
    expect(await lucidityRoll('--d20', '12', '--current', '14', '--attribute', '-3')).toMatchObject({ success: false, lucidityAfter: 14 });
    expect(await lucidityRoll('--d20', '20', '--current', '17', '--attribute', '3')).toMatchObject({ success: true, lucidityAfter: 16 });
  });

  it('at Lucidity 0 only the attribute is left to roll under; Lucidity never goes below 0 (lucidityBelowZero=clamp)', async () => {
    expect(await lucidityRoll('--d20', '1', '--current', '0')).toMatchObject({ success: false, lucidityAfter: 0 });
    expect(await lucidityRoll('--d20', '3', '--current', '0', '--attribute', '3')).toMatchObject({ success: true, lucidityAfter: 0 });
    expect(await lucidityRoll('--d20', '4', '--current', '0', '--attribute', '3')).toMatchObject({ success: false, lucidityAfter: 0 });
  });

  it('lucidityTarget=lucidity-only drops the attribute; --free (the roll at 0 Health) costs nothing', async () => {
    expect(await lucidityRoll('--d20', '15', '--current', '14', '--attribute', '3', '--option', 'lucidityTarget=lucidity-only')).toMatchObject({ success: false });
    expect(await lucidityRoll('--d20', '5', '--current', '14', '--free')).toMatchObject({ success: true, lucidityAfter: 14 });
  });
});

describe('lucidity attack ("How Combat Works"; protectionPipeline=single, protectionEqualsDamage=min-one)', () => {
  it('an attack equal to Defense misses; one over hits with Penetration 1', async () => {
    expect(await attack(12, 12, 8, 5)).toMatchObject({ hit: false, damageTaken: 0 });
    expect(await attack(13, 12, 8, 0)).toMatchObject({ hit: true, penetration: 1, damageTaken: 8 });
  });

  it('Penetration comes off Protection and what is left comes off the damage; excess Penetration adds nothing', async () => {
    // 15 - 12 = 3 Penetration; Protection 5 - 3 = 2; 8 - 2 = 6.
    expect(await attack(15, 12, 8, 5)).toMatchObject({ hit: true, penetration: 3, damageTaken: 6 });
    // 20 - 12 = 8 Penetration against Protection 7: full damage 5, not more.
    expect(await attack(20, 12, 5, 7)).toMatchObject({ penetration: 8, damageTaken: 5 });
    // Penetration exactly equal to Protection: full damage.
    expect(await attack(17, 12, 5, 5)).toMatchObject({ penetration: 5, damageTaken: 5 });
  });

  it('Protection left at double the damage or more stops it; exceeding it leaves 1; equal leaves 1 by default', async () => {
    // Protection 11 - 1 = 10 = 2 x 5: no damage.
    expect(await attack(13, 12, 5, 11)).toMatchObject({ hit: true, damageTaken: 0 });
    // Protection 10 - 1 = 9: exceeds 5, under double: 1.
    expect(await attack(13, 12, 5, 10)).toMatchObject({ damageTaken: 1 });
    // Protection 5 - 1 = 4 equal to the damage 4: subtraction gives 0 but the seed's "exceeds" is not
    // met (contradiction C2): min-one by default, zero as the other reading.
    expect(await attack(13, 12, 4, 5)).toMatchObject({ damageTaken: 1 });
    expect(await attack(13, 12, 4, 5, '--option', 'protectionEqualsDamage=zero')).toMatchObject({ damageTaken: 0 });
  });

  it('the other readings of the Protection steps are named option values', async () => {
    // double-deduction: 8 - (5 - 1) = 4, then the reduced Protection 4 again: 4 - 4, equal: 1.
    expect(await attack(13, 12, 8, 5, '--option', 'protectionPipeline=double-deduction')).toMatchObject({ damageTaken: 1 });
    // raw-thresholds: raw Protection 5 neither doubles nor exceeds 8: 8 - 4 = 4.
    expect(await attack(13, 12, 8, 5, '--option', 'protectionPipeline=raw-thresholds')).toMatchObject({ damageTaken: 4 });
  });
});

const dir = mkdtempSync(join(tmpdir(), 'lucidity-worked-'));
function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
const sheet = (name: string, lines: string[]) => file(name, ['ruleset: lucidity', ...lines]);
/** A level 1 sheet on the standard array with Precognition, Organized and Willful. */
const SELA = [
  'name: Sela Quill', 'level: 1', 'xp: 0',
  'attributes: { STR: 1, DEX: 1, CON: 0, KNO: 0, AWA: 2, WIL: 1, CHA: -1 }',
  'creation: { method: standard-array }',
  'traits: [Precognition, Organized, Willful]',
  'skills: { Swords: 3, Bows: 5 }',
  'items:',
  '  - { name: Sword, designated: true, weapon: { damage: 1d6, attribute: STR, skill: Swords } }',
  '  - { name: Leather armour, armor: { protection: 2 } }',
];

describe('lucidity sheet check: derived values at the extremes ("Lucidity", "Maximum Health", "Maximum Energy", "Item Slots", "Creating Traits")', () => {
  it('Willful, Precognition and Organized at level 1', async () => {
    // Lucidity 1 + 13 = 14. Willful: WIL 1 + 6 = 7 instead of CON 0 + 6. Energy WIL 1 + 6 = 7.
    // Slots 18 + STR 1 = 19. Designated 2 + DEX 1 + 2 (Organized) = 5. Defense 10 + KNO 0 (Precognition) + AWA 2 = 12.
    const path = sheet('sela.yaml', SELA);
    const r = await cli('lucidity', 'sheet', 'check', path, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ legal: true, maxLucidity: 14, maxHealth: 7, maxEnergy: 7, itemSlots: 19, designatedItems: 5, defense: 12 });
  });

  it('rolled scores at the ends of the modifier table: DEX -3 still leaves one designated item', async () => {
    // Scores 18 -> +3, 3 -> -3, 13 -> +1, 9 -> 0, 8 -> -1, 4 -> -2, 12 -> 0 ("Generating Attributes").
    // Health CON 1 + 6 + 5 (Healthy Living) = 12. Energy -2 + 6 = 4. Slots 18 + 3 + Hunk (1 + 1) = 23.
    // Designated 2 - 3 = -1, at least 1. Defense 10 - 3 - 1 = 6.
    const path = sheet('brann.yaml', [
      'name: Brann Holt', 'level: 1', 'xp: 0',
      'attributes: { STR: 3, DEX: -3, CON: 1, KNO: 0, AWA: -1, WIL: -2, CHA: 0 }',
      'creation: { method: rolled, scores: { STR: 18, DEX: 3, CON: 13, KNO: 9, AWA: 8, WIL: 4, CHA: 12 } }',
      'traits: [Hunk, Healthy Living, Fast Healer]',
      'skills: { Axes: 5, Wrestling: 3 }',
    ]);
    expect(await cliJson('lucidity', 'sheet', 'check', path, '--json')).toMatchObject({ legal: true, maxLucidity: 14, maxHealth: 12, maxEnergy: 4, itemSlots: 23, designatedItems: 1, defense: 6 });
  });

  const veteran = (xp: number, con: number, last: string, wil: number) => [
    'name: Maren Vos', 'level: 4', `xp: ${xp}`,
    `attributes: { STR: 2, DEX: 1, CON: ${con}, KNO: 1, AWA: 0, WIL: ${wil}, CHA: -1 }`,
    'creation: { method: standard-array }',
    'advancement:', '  - { level: 2, attribute: CON }', '  - { level: 3, attribute: CON }', `  - { level: 4, attribute: ${last} }`,
    'traits: [Impaler, Inspirator, Shuffle]',
    'skills: { Spears: 4, Leadership: 4 }',
  ];

  it('"Advancement": level 4 at exactly 60 XP, CON raised twice to +3 (healthRecalc=formula)', async () => {
    // Lucidity 4 + 13 = 17. Health (CON 3 + 6) + 3 x (CON 3 + 4) = 30. Energy (1 + 6) + 3 x (1 + 4) = 22.
    expect(await cliJson('lucidity', 'sheet', 'check', sheet('maren.yaml', veteran(60, 3, 'WIL', 1)), '--json')).toMatchObject({ legal: true, level: 4, maxLucidity: 17, maxHealth: 30, maxEnergy: 22, itemSlots: 20, designatedItems: 3, defense: 11 });
  });

  it('"Advancement": 59 XP is short of level 4, and no raise takes an attribute above +3 (exit 1)', async () => {
    const short = await cli('lucidity', 'sheet', 'check', sheet('short.yaml', veteran(59, 3, 'WIL', 1)), '--json');
    expect(short.code).toBe(1);
    expect(JSON.parse(short.stdout)).toMatchObject({ legal: false, problems: [expect.objectContaining({ field: 'level', value: 4, rule: expect.objectContaining({ section: 'Advancement' }) })] });
    const over = await cli('lucidity', 'sheet', 'check', sheet('over.yaml', veteran(60, 4, 'CON', 0)), '--json');
    expect(over.code).toBe(1);
    expect(JSON.parse(over.stdout)).toMatchObject({ legal: false, problems: [expect.objectContaining({ field: 'attributes.CON', value: 4 })] });
  });
});

interface Combatant { id: string; condition: string; level: number; health: number; maxHealth: number; lucidity: number; maxLucidity: number; energy: number; maxEnergy: number; injuries: string[] }
interface Replay { events: { type: string; data: Record<string, unknown> }[]; state: { round: number; combatants: Combatant[] } }

describe('lucidity replay: an encounter worked by hand ("How Combat Works", "Buffs and Breaks", "Hitting 0 Health")', () => {
  /** Sela against a brute, every die given; `endOfRound` is Sela's d20 for the roll at the end of round 2. */
  function fight(name: string, endOfRound: number, more: string[] = []): string {
    sheet('sela-fight.yaml', SELA);
    return file(name, [
      'ruleset: lucidity', 'title: Sela against a brute', 'seed: 3',
      'characters:',
      '  - { id: sela, sheet: sela-fight.yaml, side: party }',
      '  - { id: brute, side: foe, statBlock: { name: Brute, attributes: { STR: 2, DEX: 0, AWA: 0 }, defense: 12, protection: 5, health: 10, weapons: [{ name: Club, damage: 1d8, attribute: STR }] } }',
      'actions:',
      // Initiative d20 + AWA: Sela 15 + 2 = 17, the brute 3.
      '  - { type: start, dice: { sela: 15, brute: 3 } }',
      // 9 + STR 1 + Swords 3 + one buff left (4) = 17 against 12: Penetration 5 uses up Protection 5: all 6 damage.
      '  - { type: attack, actor: sela, target: brute, weapon: Sword, d20: 9, buffDice: [4, 4], breakDice: [2], damageDice: [6] }',
      '  - { type: end-turn }',
      // 15 + 2 = 17 against Sela's 12: Penetration 5 over Protection 2: 8 damage, 7 to Health, 1 to Lucidity (14 -> 13).
      '  - { type: attack, actor: brute, target: sela, weapon: Club, d20: 15, damageDice: [8] }',
      // End of round 1: Sela reached 0 this round, not already at 0: no roll (zeroHealthTrigger=already-at-zero).
      '  - { type: end-turn }',
      '  - { type: end-turn }',
      // 11 + 2 = 13: Penetration 1, Protection 2 - 1 = 1 equal to the damage 1: 1 (min-one), off Lucidity (13 -> 12).
      '  - { type: attack, actor: brute, target: sela, weapon: Club, d20: 11, damageDice: [1] }',
      // End of round 2: Lucidity (CON) roll against 12 + CON 0 = 12.
      `  - { type: end-turn, dice: { sela: ${endOfRound} } }`,
      ...more.map((a) => `  - ${a}`),
    ]);
  }

  it('damage past 0 Health comes off Lucidity, and the end-of-round roll reads the Degree of Failure table', async () => {
    // A 14 misses 12 by 2: a Wound (1-2 weeks). The roll costs no Lucidity.
    const r = (await cliJson('replay', fight('fight.yaml', 14), '--json')) as unknown as Replay;
    const attacks = r.events.filter((e) => e.type === 'attacked').map((e) => [e.data.hit, e.data.penetration, e.data.damageTaken, e.data.toHealth, e.data.toLucidity]);
    expect(attacks).toEqual([[true, 5, 6, 6, 0], [true, 5, 8, 7, 1], [true, 1, 1, 0, 1]]);
    const rounds = r.events.filter((e) => e.type === 'turn-ended').map((e) => e.data.zeroHealth);
    expect(rounds.slice(0, -1).every((z) => Array.isArray(z) && z.length === 0)).toBe(true);
    expect(rounds.at(-1)).toEqual([expect.objectContaining({ id: 'sela', d20: 14, target: 12, degree: 2, lucidityAfter: 12, outcome: expect.objectContaining({ kind: 'wound' }) })]);
    const sela = r.state.combatants.find((c) => c.id === 'sela')!;
    expect(sela).toMatchObject({ health: 0, lucidity: 12, injuries: ['wound'] });
    expect(r.state.combatants.find((c) => c.id === 'brute')!.health).toBe(4);
    expect(r.state.round).toBe(3);
  });

  it('a Degree of Failure of 5: all Lucidity back, one more turn of guaranteed critical successes, then death', async () => {
    // A 17 misses 12 by 5 (degreeOfFailure=points). Lucidity back to 14 (finalTurnLucidity=restore-at-final-turn).
    // The last turn's d20 counts as a natural 20: 20 + 1 + 3 = 24 against 12, Penetration 12: all 3 damage (4 -> 1).
    const r = (await cliJson('replay', fight('final.yaml', 17, ['{ type: attack, actor: sela, target: brute, weapon: Sword, d20: 2, damageDice: [3] }', '{ type: end-turn }']), '--json')) as unknown as Replay;
    const ends = r.events.filter((e) => e.type === 'turn-ended').map((e) => e.data);
    expect(ends.at(-2)!.zeroHealth).toEqual([expect.objectContaining({ id: 'sela', d20: 17, degree: 5, lucidityAfter: 14, outcome: { kind: 'final-turn' } })]);
    const last = r.events.filter((e) => e.type === 'attacked').at(-1)!.data as { roll: { d20: number; total: number; success: boolean }; damageTaken: number };
    expect(last).toMatchObject({ roll: { d20: 20, total: 24, success: true }, damageTaken: 3 });
    expect(ends.at(-1)!.died).toEqual(['sela']);
    expect(r.state.combatants.map((c) => [c.id, c.condition, c.health, c.lucidity])).toEqual([['sela', 'dead', 0, 14], ['brute', 'active', 1, 0]]);
  });

  it('"Long Rests", "Lunar Pauses", "Advancement": what a rest gives back, and a level gained with Willful', async () => {
    sheet('sela-rest.yaml', SELA);
    // 12 damage: 7 off Health, 5 off Lucidity (14 -> 9). A long rest: +3 (the d4), +1 Lucidity.
    // A rest with a Lunar Pause: +1, and 2 Lucidity in all (lunarLucidity=two-total).
    // 10 XP reaches level 2; WIL +1 -> 2. Max Lucidity 2 + 13 = 15; Willful: Health 2 x WIL 2 + 4 x 2 + 2
    // = 14; Energy (2 + 6) + (2 + 4) = 14. Current values rise with the maxima (levelUpCurrent=raise-with-max):
    // Health 4 + 7 = 11, Lucidity 12 + 1 = 13, Energy 7 + 7 = 14.
    const scenario = file('rest.yaml', [
      'ruleset: lucidity', 'title: rest and a level', 'seed: 3',
      'characters:', '  - { id: sela, sheet: sela-rest.yaml, side: party }',
      'actions:',
      '  - { type: damage, target: sela, amount: 12, reason: a fall }',
      '  - { type: rest, id: sela, healthDice: [3] }',
      '  - { type: rest, id: sela, lunarPause: true, healthDice: [1] }',
      '  - { type: award-xp, id: sela, amount: 10, reason: a milestone }',
      '  - { type: level-up, id: sela, raise: WIL }',
    ]);
    const r = (await cliJson('replay', scenario, '--json')) as unknown as Replay;
    const rests = r.events.filter((e) => e.type === 'rested').map((e) => [e.data.health, e.data.lucidity, e.data.energy]);
    expect(rests).toEqual([[3, 10, 7], [4, 12, 7]]);
    expect(r.state.combatants[0]).toMatchObject({ level: 2, maxLucidity: 15, maxHealth: 14, maxEnergy: 14, health: 11, lucidity: 13, energy: 14 });
  });
});

describe('lucidity bad input: one "personae:" line naming the flag and value, exit 2, nothing on stdout', () => {
  const cases: [string[], RegExp][] = [
    [['roll', '--d20', '21', '--target', '5'], /--d20.*'21'/],
    [['roll', '--d20', '0', '--target', '5'], /--d20.*'0'/],
    [['roll', '--d20', '1.5', '--target', '5'], /--d20.*'1\.5'/],
    [['roll', '--d20', '10'], /--target/],
    [['roll', '--d20', '10', '--target', '5', '--modifier', 'x'], /--modifier.*'x'/],
    [['roll', '--d20', '10', '--buff', '7', '--target', '5'], /--buff: "7" is not a d6 result/],
    [['roll', '--d20', '10', '--break', '1,,2', '--target', '5'], /--break: "" is not a d6 result/],
    [['lucidity-roll', '--d20', '5'], /--current/],
    [['lucidity-roll', '--d20', '5', '--current', '-1'], /--current.*'-1'/],
    [['lucidity-roll', '--d20', '5', '--current', '5', '--attribute', '4'], /--attribute: .*not 4/],
    [['lucidity-roll', '--d20', '5', '--current', '5', '--attribute', '2', '--option', 'lucidityAttribute=score'], /--attribute: .*not 2/],
    [['attack', '--attack', '10', '--defense', '5', '--damage', '3'], /--protection/],
    [['attack', '--attack', '10', '--defense', '5', '--damage', '-3', '--protection', '1'], /--damage.*'-3'/],
    [['attack', '--attack', '10', '--defense', '5', '--damage', '3', '--protection', '1', '--option', 'protectionPipeline=zz'], /protectionPipeline.*"zz"/],
    [['sheet', 'check', join(dir, 'no-such-sheet.yaml')], /cannot read .*no-such-sheet\.yaml: no such file/],
  ];
  it.each(cases)('%j', async (argv, message) => {
    await expectUsageError(['lucidity', ...argv, '--json'], message);
  });

  it('--json prints one JSON document on stdout and nothing on stderr', async () => {
    for (const argv of [['roll', '--d20', '10', '--target', '12'], ['lucidity-roll', '--d20', '5', '--current', '14'], ['attack', '--attack', '15', '--defense', '12', '--damage', '8', '--protection', '5']]) {
      const r = await cli('lucidity', ...argv, '--json');
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
    }
  });
});
